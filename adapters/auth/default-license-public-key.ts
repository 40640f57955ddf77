/**
 * The public key that verifies licences issued by Conveyor's maintainers; it is used when
 * LICENSE_PUBLIC_KEY is unset. Only the public half is in the repository: the private key that
 * signs these licences belongs to the maintainers and is kept out of it.
 *
 * Operators who issue their own licences (`conveyor generate-license-keys`, then
 * `conveyor issue-license`) set LICENSE_PUBLIC_KEY to their own public key instead; see
 * docs/licensing.md.
 */
export const DEFAULT_LICENSE_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAECAKEUi+oCO7e7tpMvwK86aSSVzg12CidRffZUWt+60=
-----END PUBLIC KEY-----
`;
