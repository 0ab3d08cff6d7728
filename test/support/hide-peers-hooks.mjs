// ESM resolve hook of hide-peers.mjs: the packages named in HIDE_PEERS cannot be found, as in a project that did
// not install them.
const hidden = new Set((process.env.HIDE_PEERS ?? "").split(",").filter(Boolean));

export async function resolve(specifier, context, next) {
  const pkg = specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
  if (hidden.has(pkg)) throw Object.assign(new Error(`Cannot find package '${pkg}' imported from ${context.parentURL}`), { code: "ERR_MODULE_NOT_FOUND" });
  return next(specifier, context);
}
