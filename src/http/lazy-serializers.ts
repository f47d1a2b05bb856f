import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type BuildSerializer = ReturnType<typeof SerializerSelector>;

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled on the first answer that
 * needs it rather than at start. A service has a serializer per route, status and method (HEAD
 * included) and most are never used on a small installation: compiled at start they held some
 * megabytes of generated code a board keeps for nothing. The schemas are constants, so a compile
 * that would fail fails in the tests of the route all the same.
 */
export function lazySerializers(): BuildSerializer {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let serialize: ((data: unknown) => string) | undefined;
      return (data: unknown) => (serialize ??= compile(route) as (data: unknown) => string)(data);
    };
  };
}
