import uriTemplateRouter from 'uri-template-router';

/** The values a URI gives a template's variables: strings, or lists for exploded ones (`{/path*}`). */
export type UriVariables = Record<string, string | string[]>;

/** Variable names that could reach an object's prototype if they became keys: refused. */
const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * An RFC 6570 URI template (levels 1 to 4), parsed and compiled once, that tells whether a URI is
 * one of its expansions and which values it gives the variables. Parsing and matching are
 * `uri-template-router`'s (a finite-state machine over the template, so a simple `{id}` never
 * matches across a `/`, and percent-encoded values come back decoded); this adds the checks mcp42
 * needs: no duplicate or reserved variable names, and no exception for a malformed URI.
 */
export class UriTemplate {
  /** The template's variable names, in order. */
  readonly variables: readonly string[];
  private readonly route: InstanceType<typeof uriTemplateRouter.Route>;

  /** @throws Error naming the problem when `template` is not a valid URI template. */
  constructor(readonly template: string) {
    this.route = new uriTemplateRouter.Route(template);
    const names = this.route.variables.map((variable) => variable.varname);
    const duplicate = names.find((name, index) => names.indexOf(name) !== index);
    if (duplicate !== undefined) throw new Error(`variable ${duplicate} appears twice`);
    const reserved = names.find((name) => RESERVED_NAMES.has(name));
    if (reserved !== undefined) throw new Error(`variable name ${reserved} is reserved`);
    this.variables = Object.freeze(names);
  }

  /**
   * The variables `uri` fills, when it is an expansion of the template; `undefined` otherwise
   * (malformed percent-encoding included). Variables the URI leaves empty or out are absent: the
   * result holds only variables the template declares.
   */
  match(uri: string): UriVariables | undefined {
    let params: Record<string, string | string[] | undefined> | undefined;
    try {
      params = this.route.resolveURI(uri)?.params;
    } catch {
      // A percent-encoded sequence that is not UTF-8 ("%C3"): no resource has such a URI.
      return undefined;
    }
    if (!params) return undefined;
    const variables: UriVariables = {};
    for (const name of this.variables) {
      const value = params[name];
      if (value !== undefined && value !== '') variables[name] = value;
    }
    return variables;
  }
}
