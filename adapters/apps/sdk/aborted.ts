/** Resolves once `signal` aborts (at once when it has): what a listener awaits until it is closed. */
export const whenAborted = (signal: AbortSignal): Promise<void> =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
