// uri-template-router ships no declarations; only what mcp42 uses is declared.
declare module 'uri-template-router' {
  interface Variable {
    readonly varname: string;
    readonly explode: boolean;
    /** The prefix modifier (`{id:3}`), `null` without one. */
    readonly maxLength: number | null;
  }
  interface Result {
    readonly params: Record<string, string | string[] | undefined>;
  }
  class Route {
    constructor(uriTemplate: string);
    readonly uriTemplate: string;
    readonly variables: readonly Variable[];
    resolveURI(uri: string): Result | undefined;
    gen(params: Record<string, unknown>): string;
  }
  const uriTemplateRouter: { readonly Route: typeof Route };
  export default uriTemplateRouter;
}
