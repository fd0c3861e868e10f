/**
 * Marks a plugin as not encapsulated, so its hooks, handlers and decorators apply to the whole app
 * (what the fastify-plugin package does; that package is not a dependency of this project).
 */
import type { FastifyPluginAsync } from "fastify";

export function shared<Options extends object>(name: string, plugin: FastifyPluginAsync<Options>): FastifyPluginAsync<Options> {
  Object.assign(plugin, { [Symbol.for("skip-override")]: true, [Symbol.for("fastify.display-name")]: name });
  return plugin;
}
