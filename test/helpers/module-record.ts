// Loaded with `node --import`: records every module file the process loads and every Node built-in
// it resolves (`node:fs`, also when a package requires `fs`) and, at exit, writes their URLs, one a
// line, to the file MODULE_RECORD names.
import { writeFileSync } from 'node:fs'
import { registerHooks } from 'node:module'

const loaded = new Set<string>()
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context)
    if (resolved.url.startsWith('node:')) loaded.add(resolved.url)
    return resolved
  },
  load(url, context, nextLoad) {
    loaded.add(url)
    return nextLoad(url, context)
  },
})
process.on('exit', () => writeFileSync(process.env.MODULE_RECORD!, [...loaded].join('\n')))
