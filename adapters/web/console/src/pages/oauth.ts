import { api } from '../api';

/**
 * The OAuth2 consent in a popup. The provider returns the popup to
 * `/app/<appKey>/connections/callback?code&state` (a console page, same origin, so it shares the
 * session cookie and this pending record), which finishes the connection and tells the opener.
 */
const PENDING = 'conveyor.oauth.pending';
export const OAUTH_MESSAGE = 'conveyor-oauth-finished';

export interface OAuthFinished {
  readonly type: typeof OAUTH_MESSAGE;
  readonly connectionId: string;
  readonly error: string | null;
}

/** Opened at once in the click's handler, before any request: browsers block later pop-ups. */
export const openConsentWindow = () => window.open('about:blank', 'conveyor-oauth', 'popup,width=640,height=760');

export const authorizeInPopup = async (connectionId: string, popup: Window | null): Promise<void> => {
  if (!popup) throw new Error('The browser blocked the sign-in window: allow pop-ups for this site and try again.');
  let url: string;
  try {
    url = (await api.post<{ url: string }>(`/connections/${connectionId}/auth-url`)).data.url;
  } catch (error) {
    popup.close();
    throw error;
  }
  localStorage.setItem(PENDING, connectionId);
  popup.location.href = url;
  return new Promise<void>((resolve, reject) => {
    const onMessage = (event: MessageEvent<OAuthFinished>) => {
      if (event.origin !== window.location.origin || event.data?.type !== OAUTH_MESSAGE) return;
      if (event.data.connectionId !== connectionId) return;
      window.removeEventListener('message', onMessage);
      clearInterval(closed);
      if (event.data.error) reject(new Error(event.data.error));
      else resolve();
    };
    // A window closed before the provider sent it back ends the attempt.
    const closed = setInterval(() => {
      if (!popup.closed) return;
      clearInterval(closed);
      window.removeEventListener('message', onMessage);
      setTimeout(() => reject(new Error('The sign-in window was closed before the connection was made.')), 300);
    }, 500);
    window.addEventListener('message', onMessage);
  });
};

/** Run by the callback page: hand the provider's code and state to the connection, then verify it. */
export const finishAuthorization = async (code: string, state: string): Promise<OAuthFinished> => {
  const connectionId = localStorage.getItem(PENDING);
  if (!connectionId)
    return { type: OAUTH_MESSAGE, connectionId: '', error: 'No connection was waiting for this sign-in.' };
  localStorage.removeItem(PENDING);
  try {
    await api.patch(`/connections/${connectionId}`, { formattedData: { code, state } });
    await api.post(`/connections/${connectionId}/verify`);
    return { type: OAUTH_MESSAGE, connectionId, error: null };
  } catch (error) {
    return {
      type: OAUTH_MESSAGE,
      connectionId,
      error: error instanceof Error ? error.message : 'The connection failed.',
    };
  }
};
