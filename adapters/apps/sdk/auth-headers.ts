/** `Authorization: Bearer <token>`: personal access tokens, bot tokens, API keys sent as bearer. */
export const bearerHeader = (token: string): Readonly<Record<string, string>> => ({
  authorization: `Bearer ${token}`,
});

/** HTTP basic authentication (RFC 7617); the user name must not hold a colon, the password may. */
export const basicHeader = (username: string, password: string): Readonly<Record<string, string>> => ({
  authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`,
});
