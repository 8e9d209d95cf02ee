/**
 * The server's response class (http.createServer's `ServerResponse` option, so every handler has it:
 * REST, OAuth, MCP, the portal's transport, Next). An answer written before its request's body has been
 * read to the end (a refusal sent without reading it, a body over the size limit) ends the connection
 * with it: `Connection: close`. Kept open, the connection would either wait for ever on a reader that
 * stopped mid-body (the client's next request on it never answered) or have node drain a body of any
 * size in the background.
 */
import http, { type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import { bodyUnread } from './rest/body';

export class AppResponse extends http.ServerResponse {
  override writeHead(
    statusCode: number,
    statusMessage?: string,
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this;
  override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
  override writeHead(
    statusCode: number,
    ...rest: [(string | OutgoingHttpHeaders | OutgoingHttpHeader[])?, (OutgoingHttpHeaders | OutgoingHttpHeader[])?]
  ): this {
    // Before the head is written: node then sends `Connection: close` and closes once the answer is out.
    if (bodyUnread(this.req)) this.shouldKeepAlive = false;
    return super.writeHead(statusCode, ...(rest as [string, OutgoingHttpHeaders]));
  }
}
