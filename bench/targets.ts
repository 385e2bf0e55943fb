/** The servers the benchmark can start, by the name the child process is given. */
export const TARGETS = {
  mcp42: 'mcp42 (sample app, Nest + Express)',
  'bare-nest': 'bare Nest @Post() route (Express)',
  'sdk-express': 'official SDK (createMcpExpressApp)',
  'sdk-node': 'official SDK (plain node:http)',
} as const;

export type TargetName = keyof typeof TARGETS;

/** Parent → child. */
export type ChildCommand = { readonly type: 'heap' } | { readonly type: 'stop' };

/** Child → parent. */
export type ChildReport =
  | { readonly type: 'ready'; readonly url: string }
  | { readonly type: 'heap'; readonly heapUsed: number; readonly sessions: number | undefined };
