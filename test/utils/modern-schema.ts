/**
 * Checks what a server sends on the 2026-07-28 wire against the revision's own JSON Schema, as the
 * conformance suite's `wire-schema-valid` check does.
 *
 * The schema: `test/fixtures/schema-2026-07-28.json` is a copy of `schema/2026-07-28/schema.json`
 * of the repository modelcontextprotocol/modelcontextprotocol at commit b0f60ba5 (the same JSON,
 * formatted by prettier). Replace it with that file of a newer commit when the revision changes,
 * and update the commit named here.
 *
 * How a message is judged (the suite's rules):
 * - a result by the method of the request it answers (`tools/call` → `CallToolResult`, ...), or as
 *   `InputRequiredResult` when its `resultType` is `input_required`; methods without a result type
 *   of their own (the tasks extension's `tasks/*`) as `Result`, and so is a `CreateTaskResult`
 *   (`resultType: "task"`): the extension's shapes are not part of the revision's schema;
 * - an error by its code: -32020 `HeaderMismatchError`, -32021
 *   `MissingRequiredClientCapabilityError`, -32022 `UnsupportedProtocolVersionError`, any other
 *   `JSONRPCErrorResponse`;
 * - a notification by its method (`notifications/progress` → `ProgressNotification`, ...), others
 *   as `JSONRPCNotification`;
 * - a request from the server is never valid: the revision has none (MRTR replaced them).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SCHEMA_FILE = fileURLToPath(new URL('../fixtures/schema-2026-07-28.json', import.meta.url));
const SCHEMA_ID = 'https://modelcontextprotocol.io/schema/2026-07-28.json';

/** The result type of each request method, by its `$defs` name. */
const RESULT_OF: Readonly<Record<string, string>> = {
  'server/discover': 'DiscoverResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'completion/complete': 'CompleteResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
};

/** The error type of each error code the revision defines. */
const ERROR_OF: Readonly<Record<number, string>> = {
  [-32020]: 'HeaderMismatchError',
  [-32021]: 'MissingRequiredClientCapabilityError',
  [-32022]: 'UnsupportedProtocolVersionError',
};

/** The notification type of each server notification. */
const NOTIFICATION_OF: Readonly<Record<string, string>> = {
  'notifications/progress': 'ProgressNotification',
  'notifications/message': 'LoggingMessageNotification',
  'notifications/cancelled': 'CancelledNotification',
  'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/prompts/list_changed': 'PromptListChangedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
};

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function validatorOf(name: string): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    if (!ajv) {
      // The suite's settings: not strict (the schema has keywords Ajv does not know), every problem reported.
      ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
      formatsPlugin.default(ajv);
      // base64 content (`format: byte`) is not checked, as in the suite.
      ajv.addFormat('byte', true);
      ajv.addSchema(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object, SCHEMA_ID);
    }
    validate = ajv.getSchema(`${SCHEMA_ID}#/$defs/${name}`);
    if (!validate) throw new Error(`the 2026-07-28 schema has no $defs/${name}`);
    compiled.set(name, validate);
  }
  return validate;
}

function problemsOf(name: string, value: unknown, at: string): string[] {
  const validate = validatorOf(name);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${name}${at}${error.instancePath}: ${error.message ?? 'invalid'}`);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `$defs` types a server message is checked against (see the file's description). */
export function schemaTypesOf(message: unknown, requestMethod?: string): string[] {
  if (!isObject(message)) return ['JSONRPCMessage'];
  if ('error' in message) {
    const code = isObject(message.error) ? message.error.code : undefined;
    return [(typeof code === 'number' ? ERROR_OF[code] : undefined) ?? 'JSONRPCErrorResponse'];
  }
  if ('result' in message) {
    const result = isObject(message.result) ? message.result : {};
    const type =
      result.resultType === 'input_required'
        ? 'InputRequiredResult'
        : result.resultType === 'task'
          ? 'Result'
          : ((requestMethod === undefined ? undefined : RESULT_OF[requestMethod]) ?? 'Result');
    return ['JSONRPCResultResponse', type];
  }
  if (typeof message.method === 'string' && !('id' in message)) {
    return [NOTIFICATION_OF[message.method] ?? 'JSONRPCNotification'];
  }
  return ['JSONRPCRequest'];
}

/**
 * What is wrong with a message a server sent on the 2026-07-28 wire; empty when nothing is.
 * @param requestMethod the method of the request it answers (or that opened the stream it came on).
 */
export function modernSchemaProblems(message: unknown, requestMethod?: string): string[] {
  if (isObject(message) && typeof message.method === 'string' && 'id' in message) {
    return [`a server → client request (${message.method}) on the 2026-07-28 wire, which has none (MRTR)`];
  }
  const [envelope, result] = schemaTypesOf(message, requestMethod);
  const problems = problemsOf(envelope!, message, '');
  if (result !== undefined && isObject(message)) problems.push(...problemsOf(result, message.result, '/result'));
  // The schema lets an error response leave its id out, but the wire suite reads a null id as a violation.
  if (isObject(message) && 'error' in message && message.id === null) problems.push(`${envelope}: id is null`);
  return problems;
}

/** Fails (throws, showing the message) unless `message` is a valid server message of the 2026-07-28 wire. */
export function expectModernSchema(message: unknown, requestMethod?: string): void {
  const problems = modernSchemaProblems(message, requestMethod);
  if (problems.length > 0) {
    throw new Error(
      `server message violates the 2026-07-28 schema (as ${schemaTypesOf(message, requestMethod).join(' + ')}):\n` +
        `${problems.join('\n')}\nmessage: ${JSON.stringify(message)}`,
    );
  }
}
