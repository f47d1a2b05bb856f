/**
 * Work asked for during one turn of the event loop, done in one call (`all`) once the turn's I/O
 * is handled; should that call fail, each piece is done on its own (`alone`), so that each gets
 * its own outcome. Each piece's promise answers `done` when the call for all succeeded.
 */
export function together<T, R>(all: (inputs: T[]) => Promise<unknown>, alone: (input: T) => Promise<R>, done: R) {
  let gathered: { input: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] | undefined;

  function run(): void {
    const parts = gathered ?? [];
    gathered = undefined;
    const eachAlone = () => {
      for (const part of parts) alone(part.input).then(part.resolve, part.reject);
    };
    if (parts.length === 1) return eachAlone();
    all(parts.map((part) => part.input)).then(() => {
      for (const part of parts) part.resolve(done);
    }, eachAlone);
  }

  return (input: T): Promise<R> =>
    new Promise((resolve, reject) => {
      if (!gathered) {
        gathered = [];
        // After the packets already read from every connection have been taken in.
        setImmediate(run);
      }
      gathered.push({ input, resolve, reject });
    });
}
