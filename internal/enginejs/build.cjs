// Bundles a test's TypeScript entry with the engine's own sources for
// Node: node build.cjs ESBUILD SDK ENTRY OUT. "@engine/..." in an import
// names a file under SDK (the engine's sdk/src), and "esengine" its entry
// (index.ts), as a game imports it. The sources kept beside
// worldcook are a selection of the engine's files; a module they import
// that is not among them becomes an inert stand-in exporting the names
// asked of it, so that the functions under test (which never call into
// those modules) run as the engine wrote them.
//
// "@residency/FILE?expose=a,b" names a file of the engine's world-streaming
// code kept beside sdk/src (../../residency), loaded as if it sat in
// sdk/src/world where the engine keeps it (so that its "../scene/..."
// imports find the engine's files), with the module-private functions a, b
// exported as well, for a test that runs them on its own.
const fs = require('fs');
const path = require('path');
const esbuild = require(process.argv[2]);
const [sdk, entry, outfile] = process.argv.slice(3);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// The names an importer takes from a module that is not among the sources.
function namesFrom(importer, spec) {
  const src = fs.readFileSync(importer, 'utf8');
  const names = new Set();
  const re = new RegExp(`(?:import|export)\\s+(type\\s+)?(?:[\\w$]+\\s*,\\s*)?\\{([^}]*)\\}\\s*from\\s*['"]${escape(spec)}['"]`, 'g');
  for (const m of src.matchAll(re)) {
    if (m[1]) continue;
    for (let part of m[2].split(',')) {
      part = part.trim();
      if (!part || part.startsWith('type ')) continue;
      names.add(part.split(/\s+as\s+/)[0].trim());
    }
  }
  return [...names];
}
const stub = (names) => `const make = () => new Proxy(function () {}, {
  get: (t, k) => (k === Symbol.toPrimitive ? () => 0 : k === 'then' ? undefined : make()),
  apply: () => make(), construct: () => make(),
});
export default make();
${names.map((n) => `export const ${n} = make();`).join('\n')}`;
esbuild.build({
  entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'error', target: 'node18',
  plugins: [{ name: 'absent', setup(b) {
    b.onResolve({ filter: /^@residency\// }, (args) => {
      const [rel, query] = args.path.slice('@residency/'.length).split('?expose=');
      const file = path.join(sdk, '..', '..', '..', 'residency', rel + '.ts');
      return { path: file, namespace: 'residency', pluginData: { expose: query ? query.split(',') : [] } };
    });
    b.onLoad({ filter: /.*/, namespace: 'residency' }, (args) => {
      const names = args.pluginData.expose;
      const extra = names.length ? `\nexport { ${names.join(', ')} };\n` : '';
      return { contents: fs.readFileSync(args.path, 'utf8') + extra, loader: 'ts', resolveDir: path.dirname(args.path) };
    });
    // Its own imports: a file of the residency folder, else the engine's
    // file that path names from sdk/src/world.
    b.onResolve({ filter: /^\./, namespace: 'residency' }, (args) => {
      const near = path.join(path.dirname(args.importer), args.path + '.ts');
      if (fs.existsSync(near)) return { path: near, namespace: 'residency', pluginData: { expose: [] } };
      const file = path.join(sdk, 'world', args.path + '.ts');
      if (fs.existsSync(file)) return { path: file };
      return { path: args.importer + '?' + args.path, namespace: 'absent', pluginData: { names: namesFrom(args.importer, args.path) } };
    });
    b.onResolve({ filter: /^@engine\// }, (args) => {
      const file = path.join(sdk, args.path.slice('@engine/'.length) + '.ts');
      if (fs.existsSync(file)) return { path: file };
      return { path: args.importer + '?' + args.path, namespace: 'absent', pluginData: { names: namesFrom(args.importer, args.path) } };
    });
    // The engine's package name, as a game imports it: its SDK entry.
    b.onResolve({ filter: /^esengine$/ }, (args) => {
      const file = path.join(sdk, 'index.ts');
      if (fs.existsSync(file)) return { path: file };
      return { path: args.importer + '?' + args.path, namespace: 'absent', pluginData: { names: namesFrom(args.importer, args.path) } };
    });
    b.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData && args.pluginData.inner) return undefined;
      const r = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: { inner: true } });
      if (r.errors.length === 0) return r;
      return { path: args.importer + '?' + args.path, namespace: 'absent', pluginData: { names: namesFrom(args.importer, args.path) } };
    });
    b.onLoad({ filter: /.*/, namespace: 'absent' }, (args) => ({ contents: stub(args.pluginData.names), loader: 'js' }));
  } }],
}).catch(() => process.exit(1));
