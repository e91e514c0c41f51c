/**
 * The head of a load generator's worker source (started with `new Worker(source, { eval: true })`,
 * so that client work never shares the measured server's thread). It defines `post()`: one request
 * of `workerData.body` to `workerData.url`/graphql over a keep-alive agent of `workerData.sockets`
 * sockets (1 by default), with `workerData.token` as the bearer when given; it rejects unless the
 * answer is a 200 containing `workerData.expect`. The rest of the source uses `post`, `agent`,
 * `parentPort` and `workerData`.
 */
export const GRAPHQL_POST_CLIENT = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: workerData.sockets ?? 1 });
const target = new URL("/graphql", workerData.url);
const headers = { "content-type": "application/json", "content-length": Buffer.byteLength(workerData.body) };
if (workerData.token) headers.authorization = "Bearer " + workerData.token;
const post = () => new Promise((resolve, reject) => {
  const request = http.request(target, { method: "POST", agent, headers }, (response) => {
    const chunks = [];
    response.on("data", (chunk) => chunks.push(chunk));
    response.on("end", () => {
      const text = Buffer.concat(chunks).toString();
      if (response.statusCode !== 200 || !text.includes(workerData.expect)) reject(new Error(text.slice(0, 200)));
      else resolve();
    });
  });
  request.on("error", reject);
  request.end(workerData.body);
});
`;
