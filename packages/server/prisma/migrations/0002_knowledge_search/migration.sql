-- Search indexes Prisma cannot declare. The embedding column has no fixed dimension (the embedder
-- decides it), and HNSW needs one, so each index covers the chunks of one dimension through an
-- expression; queries repeat the same expression and condition to use it. These cover the built-in
-- embedder (384) and OpenAI's default (1536); the knowledge service adds one at start for any other
-- configured dimension.
CREATE INDEX IF NOT EXISTS "document_chunks_embedding_384_hnsw"
  ON "document_chunks" USING hnsw (("embedding"::vector(384)) vector_cosine_ops)
  WHERE vector_dims("embedding") = 384;

CREATE INDEX IF NOT EXISTS "document_chunks_embedding_1536_hnsw"
  ON "document_chunks" USING hnsw (("embedding"::vector(1536)) vector_cosine_ops)
  WHERE vector_dims("embedding") = 1536;

CREATE INDEX IF NOT EXISTS "document_chunks_search_vector_gin"
  ON "document_chunks" USING gin ("searchVector");
