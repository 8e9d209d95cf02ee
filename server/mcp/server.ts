/** One MCP server instance per request (stateless), its tools bound to the connector it acts as. */
import { McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { toApiError } from '../rest/errors';
import { refuseBadText } from '../values/text';
import type { Connector } from './connector';
import { TOOLS } from './tools';

export const SERVER_INFO = { name: 'clinic-api', title: 'Clinic API', version: '3.0.0' };
const INSTRUCTIONS =
  "Read-only access to one clinic's practice records (patients, appointments, billing, reference data) as the team member who connected this app, with their role's permissions. " +
  'Start with list_entity_types; use find_patient, patient_summary, practitioner_schedule and next_available_slot for common questions; query_entities and get_entity for anything else. ' +
  'Times are clinic wall times in the account timezone. Errors carry the REST API error code.';

/** A domain or input error as a tool result (isError), with the REST error body as its text and structure. */
function errorResult(err: unknown, onInternal: (err: unknown) => void): CallToolResult {
  const { error, internal } = toApiError(err);
  if (internal) onInternal(err);
  const body = error.toBody();
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** `onInternal`: where unexpected failures are logged (the caller sees only internal_error). */
export function buildServer(connector: Connector, onInternal: (err: unknown) => void): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  for (const t of TOOLS) {
    server.registerTool(
      t.name,
      {
        title: t.title,
        description: t.description,
        inputSchema: t.input,
        outputSchema: t.output,
        annotations: t.annotations,
      },
      async (input: unknown) => {
        try {
          refuseBadText(input);
          const result = await t.run(connector, t.input.parse(input));
          return {
            content: [{ type: 'text', text: JSON.stringify(result) }],
            structuredContent: result as Record<string, unknown>,
          };
        } catch (err) {
          return errorResult(err, onInternal);
        }
      },
    );
  }
  return server;
}
