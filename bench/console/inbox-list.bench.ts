/**
 * How fast the console's inbox list answers: `conversations(perPage: 50)` with each conversation's
 * `lastMessage`, through the whole API (GraphQL over `app.handle`, in process), and how many SQL
 * statements its previews cost.
 *
 *   pnpm exec tsx bench/console/inbox-list.bench.ts [conversations] [messages-each]   (default 50 20)
 *
 * Baselines measured in the same run, on the same rows: the list without `lastMessage` (the floor),
 * and the previews read as the API read them before they were batched: one `findFirst` per
 * conversation after the list query. Runs on an in-memory PGlite, or PostgreSQL with DATABASE_URL.
 */
import { inProcessApp, percentile, timeSamples } from "../support/in-process-app.ts";

const CONVERSATIONS = Number(process.argv[2] ?? 50);
const MESSAGES = Number(process.argv[3] ?? 20);
const ITERATIONS = 30;

const app = await inProcessApp();
const prisma = app.db.prisma;

const { account, user } = await app.services.accounts.create({
  email: `bench-inbox-${Date.now()}@example.com`,
  password: "bench-password",
});
const { token } = await app.services.apiKeys.create(
  { accountId: account.id, userId: user.id },
  { name: "bench" },
);
const assistant = await app.services.assistants.create(
  { accountId: account.id, userId: user.id },
  { name: "Inbox" },
);
for (let index = 0; index < CONVERSATIONS; index++) {
  const conversation = await prisma.conversation.create({
    data: { accountId: account.id, assistantId: assistant.id, channel: "widget", lastMessageAt: new Date() },
  });
  await prisma.message.createMany({
    data: Array.from({ length: MESSAGES }, (_, message) => ({
      conversationId: conversation.id,
      role: message % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content: `Message ${message} of conversation ${index}: where is my parcel?`,
    })),
  });
}

async function gql(query: string): Promise<void> {
  const response = await app.handle(
    new Request("http://bench.local/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    }),
  );
  const body = (await response.json()) as { errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
}

const time = async (run: () => Promise<void>) => percentile(await timeSamples(run, ITERATIONS), 0.5);

/** Counts the statements `run` sends, on every connection the pool lends out meanwhile. */
async function statements(run: () => Promise<void>): Promise<number> {
  let count = 0;
  const seen = new WeakSet<object>();
  const watch = (client: { query: (...args: unknown[]) => unknown }) => {
    if (seen.has(client)) return;
    seen.add(client);
    const query = client.query.bind(client);
    client.query = (...args: unknown[]) => {
      count++;
      return query(...args);
    };
  };
  app.db.pgPool.on("acquire", watch);
  try {
    await run();
  } finally {
    app.db.pgPool.off("acquire", watch);
  }
  return count;
}

const LIST = `{ conversations(perPage: ${CONVERSATIONS}) { items { id unread lastMessageAt } } }`;
const INBOX = `{ conversations(perPage: ${CONVERSATIONS}) { items { id unread lastMessageAt lastMessage { role content createdAt } } } }`;
const perItem = async () => {
  const list = await prisma.conversation.findMany({
    where: { accountId: account.id },
    orderBy: { updatedAt: "desc" },
    take: CONVERSATIONS,
  });
  await Promise.all(
    list.map((conversation) =>
      prisma.message.findFirst({ where: { conversationId: conversation.id }, orderBy: { id: "desc" } }),
    ),
  );
};

const rows: [string, number, number][] = [
  ["API: inbox list with lastMessage", await time(() => gql(INBOX)), await statements(() => gql(INBOX))],
  ["baseline: API list, no lastMessage", await time(() => gql(LIST)), await statements(() => gql(LIST))],
  ["baseline: one findFirst per item", await time(perItem), await statements(perItem)],
];
console.log(
  `Inbox list, ${CONVERSATIONS} conversations of ${MESSAGES} messages, ${app.db.kind}, median of ${ITERATIONS}`,
);
for (const [name, ms, count] of rows)
  console.log(
    `  ${name.padEnd(38)} ${ms.toFixed(1).padStart(7)} ms  ${String(count).padStart(3)} statement(s)`,
  );
await app.close();
