/** Text a user typed that may spell JSON: the JSON value when it does, else the text itself; none is null. */
export const jsonOrText = (text: string | undefined): unknown => {
  if (text === undefined) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};
