// A TypeDoc plugin (typedoc.config.mjs): the API reference names each module as users import it,
// `mcp42` and `mcp42/<subpath>`, rather than by its file (`index`, `redis`).
import { Converter, ReflectionKind } from 'typedoc';

/** TypeDoc's plugin entry: renames the entry point modules before the reference is rendered. */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
      module.name = module.name === 'index' ? 'mcp42' : `mcp42/${module.name}`;
    }
  });
}
