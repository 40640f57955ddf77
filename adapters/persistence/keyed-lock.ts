/**
 * Runs work one at a time per key, in the order it was asked for, within this process. Work under
 * different keys runs side by side; a key nobody waits on is forgotten.
 */
export const createKeyedLock = () => {
  const tails = new Map<string, Promise<void>>();
  return async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const before = tails.get(key) ?? Promise.resolve();
    let release = () => {};
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = before.then(() => mine);
    tails.set(key, tail);
    await before;
    try {
      return await work();
    } finally {
      release();
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
};

export type KeyedLock = ReturnType<typeof createKeyedLock>;
