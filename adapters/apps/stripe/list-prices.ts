import { type DraftContext, paginate } from '../sdk/index.js';
import { stripePages } from './pages.js';

interface Price {
  readonly id: string;
  readonly nickname: string | null;
  readonly unit_amount: number | null;
  readonly currency: string;
  readonly recurring: { readonly interval: string } | null;
  readonly product: { readonly name?: string } | string;
}

/** Currencies whose amounts Stripe counts in whole units (no cents). */
const ZERO_DECIMAL = new Set('bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' '));

const amountOf = (price: Price) => {
  if (price.unit_amount === null) return 'custom amount';
  const amount = ZERO_DECIMAL.has(price.currency) ? String(price.unit_amount) : (price.unit_amount / 100).toFixed(2);
  return `${amount} ${price.currency.toUpperCase()}${price.recurring ? `/${price.recurring.interval}` : ''}`;
};

/** Active prices with their product's name, every page (Stripe pages by `starting_after`). */
export const listPrices = async (ctx: DraftContext) => {
  const prices = await paginate<Price>(
    ctx.http,
    { path: '/v1/prices', query: { active: true, limit: 100, 'expand[]': 'data.product' } },
    stripePages,
  );
  return prices.map((price) => {
    const product = typeof price.product === 'string' ? price.product : (price.product.name ?? '');
    return { name: `${price.nickname ?? product} (${amountOf(price)})`, value: price.id };
  });
};
