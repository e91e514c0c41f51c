-- Vector search filters on three columns that always go together (a knowledge base's chunks share one
-- embedder and one dimension), and one of them is an expression the planner has no statistics for.
-- Without these statistics it multiplies three selectivities and takes a knowledge base of 100,000
-- chunks for ~500 rows, so it sorts them all by distance instead of reading the HNSW index in order.
-- With them it knows the real row count: the HNSW index for a large knowledge base, the
-- knowledgebaseId index and an exact sort for a small one.
CREATE STATISTICS IF NOT EXISTS "document_chunks_search_scope" (dependencies, mcv)
  ON "knowledgebaseId", "embedder", (vector_dims("embedding")) FROM "document_chunks";
