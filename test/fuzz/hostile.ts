import fc from 'fast-check';

/** encodeURIComponent, except that a lone surrogate (which it refuses) goes as malformed percent-encoding. */
export const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return `${encodeURIComponent(text.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
  }
};

/** Keys that pollute `Object.prototype` when an object is merged or assigned key by key. */
export const POLLUTING_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
/** The property a successful pollution would add; the suite checks no object ever has it. */
export const POLLUTION_MARK = 'fuzzPolluted';

const pollutingObject = fc.constantFrom<unknown>(
  { ['__proto__']: { [POLLUTION_MARK]: true } },
  { constructor: { prototype: { [POLLUTION_MARK]: true } } },
  { prototype: { [POLLUTION_MARK]: true } },
  { toString: 'x', valueOf: 1, hasOwnProperty: null },
);

/** Strings that have broken parsers, databases and templates elsewhere. */
const nastyString = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u2066',
  '💩'.repeat(50),
  "' OR '1'='1' --",
  '"; drop table users; --',
  '%00%ff%',
  '%',
  '%E0%A4%A',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection attempt, sent as it is
  '${process.exit()}',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  'null',
  'true',
  '[object Object]',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '00000000-0000-4000-8000-00000000000g',
  'https://127.0.0.1:1/',
  'javascript:alert(1)',
  'file:///etc/passwd',
);

/** A long string, up to a few hundred kilobytes: beyond every column and field limit. */
export const hugeString = fc
  .tuple(fc.constantFrom('a', 'é', '💩', '\u0000', ' ', '%'), fc.integer({ min: 256, max: 200_000 }))
  .map(([unit, length]) => unit.repeat(length));

const nastyNumber = fc.constantFrom<unknown>(
  0,
  -1,
  -0,
  2 ** 31,
  2 ** 53 + 1,
  -(2 ** 63),
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  1.5,
  1e308,
);

/**
 * Stands for a value nested `depth` levels deep, which the encoder writes out as text: built as an
 * object, it could overflow the generator's own stack before the server's.
 */
const DEEP = '\u0001fuzz-deep:';
export const deepValue = fc.integer({ min: 50, max: 30_000 }).map((depth) => `${DEEP}${depth}`);

/** JSON text with each deep-value marker replaced by arrays and objects nested that deep. */
export const expandDeepValues = (json: string) =>
  json.replace(/"\\u0001fuzz-deep:(\d+)"/g, (_marker, depth: string) => {
    const levels = Number(depth);
    return `${'[{"a":'.repeat(levels)}1${'}]'.repeat(levels)}`;
  });

/** A value of a type no field expects, or of the right type but absurd. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  deepValue,
  nastyString,
  hugeString,
  nastyNumber,
  fc.constantFrom<unknown>(null, true, false, [], {}, [[]], [null], { '': '' }),
  pollutingObject,
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 64 }),
);

/** JSON text nested `depth` levels deep: arrays, objects, or objects under a polluting key. */
export const deeplyNestedJson = fc
  .tuple(fc.constantFrom('array', 'object', 'proto'), fc.integer({ min: 100, max: 100_000 }))
  .map(([kind, depth]) => {
    const [open, close] = kind === 'array' ? ['[', ']'] : kind === 'object' ? ['{"a":', '}'] : [`{"__proto__":`, '}'];
    return `${open.repeat(depth)}1${close.repeat(depth)}`;
  });

/** Replaces, removes or adds one field of a generated object, or makes it something else altogether. */
export const mutateBody = (valid: unknown): fc.Arbitrary<unknown> => {
  const alternatives: fc.Arbitrary<unknown>[] = [hostileValue, fc.constant([valid])];
  if (valid && typeof valid === 'object' && !Array.isArray(valid)) {
    const keys = Object.keys(valid);
    const key = fc.oneof(
      ...(keys.length > 0 ? [fc.constantFrom(...keys)] : []),
      fc.constantFrom(...POLLUTING_KEYS),
      fc.string({ maxLength: 10 }),
    );
    alternatives.push(
      fc.tuple(key, hostileValue).map(([k, value]) => ({ ...valid, [k]: value })),
      fc.tuple(key, hostileValue).map(([k, value]) => {
        const copy: Record<string, unknown> = { ...valid };
        Object.defineProperty(copy, k, { value, enumerable: true, configurable: true, writable: true });
        return copy;
      }),
      keys.length > 0
        ? fc.constantFrom(...keys).map((k) => {
            const { [k]: _removed, ...rest } = valid as Record<string, unknown>;
            return rest;
          })
        : fc.constant(valid),
    );
  }
  return fc.oneof(...alternatives);
};

/** Body texts that are not what the route expects at all. */
export const hostileBodyText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '{', '}', '[', 'null', '[]', '""', '0', '-', 'true', '{"a":1,}', '{"a":1}{"b":2}', '\ufeff{}'),
  fc.constantFrom(
    '{"__proto__":{"fuzzPolluted":true}}',
    '{"constructor":{"prototype":{"fuzzPolluted":true}}}',
    '{"a":1,"a":2,"__proto__":[]}',
  ),
  deeplyNestedJson,
  fc.string({ unit: 'binary', maxLength: 200 }),
  hugeString.map((s) => JSON.stringify({ name: s })),
  fc.constantFrom('a=1&b=2', 'SAMLResponse=%%%&RelayState=', '<?xml version="1.0"?><a/>', '--boundary\r\n\r\n'),
);

/** A path segment: already encoded for the URL, hostile in one way or another. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  nastyString.map(encode),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%ff', '%C0%AF', '%00', '..', '.', '%2e%2e', '%2F', 'a%2Fb', '%20'),
  fc.integer().map(String),
  fc.string({ maxLength: 30 }).map(encode),
  fc.constantFrom('x'.repeat(2000), '9'.repeat(400), `${'a'.repeat(36)}`),
);

/** Query parameters a route does not expect, or in shapes the parser must survive. */
export const hostileQueryPair: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__[fuzzPolluted]=1',
    '__proto__.fuzzPolluted=1',
    'constructor[prototype][fuzzPolluted]=1',
    'page=-1',
    'page=0',
    'page=1e309',
    'page=NaN',
    'perPage=100000000000',
    'perPage=-5',
    'page=1&page=2',
    'page[]=1',
    'perPage=%',
    'name=%E0%A4%A',
    '%=%',
    '&&&',
    '=',
    'a',
  ),
  fc.tuple(fc.string({ maxLength: 12 }), nastyString).map(([k, v]) => `${encode(k)}=${encode(v)}`),
);
