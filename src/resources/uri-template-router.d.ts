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
  interface Route {
    readonly uriTemplate: string;
    readonly variables: readonly Variable[];
    resolveURI(uri: string): Result | undefined;
    gen(params: Record<string, unknown>): string;
  }
  interface Expression {
    readonly operatorChar: string;
    readonly variableList: readonly Variable[];
  }
  const uriTemplateRouter: {
    readonly Route: new (uriTemplate: string) => Route;
    /** Parses the body of one `{...}` expression (operator and variables), without compiling anything. */
    readonly Expression: { from(patternBody: string): Expression };
  };
  export default uriTemplateRouter;
}
