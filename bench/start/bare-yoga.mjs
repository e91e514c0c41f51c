// The baseline of bench/start: graphql-yoga alone answering `{ __typename }` on node:http, with the
// graphql-yoga the server uses (packages/server's dependency). PORT from the environment.

import { createServer } from "node:http";
import { createRequire } from "node:module";

const require = createRequire(new URL("../../packages/server/package.json", import.meta.url));
const { createSchema, createYoga } = require("graphql-yoga");

const yoga = createYoga({
  schema: createSchema({ typeDefs: "type Query { hello: String }", resolvers: {} }),
  logging: false,
});
createServer(yoga).listen(Number(process.env.PORT), "127.0.0.1");
