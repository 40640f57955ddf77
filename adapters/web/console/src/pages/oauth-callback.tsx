import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { finishAuthorization } from './oauth';

/** `/app/:appKey/connections/callback`: where the OAuth provider returns the popup. */
export const OAuthCallback = () => {
  const { query } = useLocation();
  const [message, setMessage] = useState('Finishing the connection…');
  useEffect(() => {
    const { code, state, error } = query;
    if (error || !code || !state) {
      setMessage(`The provider did not grant access${error ? `: ${error}` : ''}. Close this window and try again.`);
      return;
    }
    void finishAuthorization(code, state).then((finished) => {
      if (window.opener) {
        (window.opener as Window).postMessage(finished, window.location.origin);
        window.close();
      }
      setMessage(
        finished.error
          ? `The connection failed: ${finished.error}`
          : 'Connected. You can close this window and go back to Conveyor.',
      );
    });
  }, [query]);
  return (
    <section class="page">
      <h1>Connecting</h1>
      <p role="status">{message}</p>
    </section>
  );
};
