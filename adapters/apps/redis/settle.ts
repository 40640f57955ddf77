/**
 * Waits for `emit` unless the subscription closes first: true when the message was accepted, false
 * when it was refused or the signal aborted (the engine's emit may never settle for a subscription
 * it is closing). Either way the caller does not acknowledge it.
 */
export const accepted = (emit: Promise<void>, signal: AbortSignal): Promise<boolean> =>
  new Promise((resolve) => {
    if (signal.aborted) {
      emit.catch(() => {});
      resolve(false);
      return;
    }
    const abort = () => resolve(false);
    signal.addEventListener('abort', abort, { once: true });
    emit.then(
      () => {
        signal.removeEventListener('abort', abort);
        resolve(!signal.aborted);
      },
      () => {
        signal.removeEventListener('abort', abort);
        resolve(false);
      },
    );
  });
