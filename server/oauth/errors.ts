/**
 * Errors of the OAuth endpoints, in the shape OAuth clients parse (RFC 6749 §5.2, RFC 7591 §3.2.2):
 * `{ error, error_description }`. The REST API's `{ message, code }` shape stays for /v3/api.
 */
export class OAuthFailure extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }

  body() {
    return { error: this.error, error_description: this.description };
  }
}
