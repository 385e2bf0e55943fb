/**
 * What a tool method parameter receives. Numbers, because Nest's external context creator maps
 * parameter keys of the form `<number>:<index>`; chosen far from Nest's own route parameter types.
 */
export const ParamType = {
  /** The validated arguments, or one property of them. */
  Args: 100,
  /** The call's `McpContext`. */
  Context: 101,
  /** The calling session. */
  Session: 102,
  /** The URI being read (resources and resource templates). */
  Uri: 103,
} as const;

export type ParamTypeValue = (typeof ParamType)[keyof typeof ParamType];
