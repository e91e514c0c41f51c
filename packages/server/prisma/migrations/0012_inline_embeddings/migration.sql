-- pgvector's type is stored out of line (storage EXTERNAL): a passage of 384 dimensions (1.5 KB) with its
-- text and tsvector passes the 2 KB toast threshold, and its vector went to the toast table first, so an
-- exact scan fetched every passage's vector through the toast index: 0.13 ms a passage on the embedded
-- store, which keeps no HNSW index and searches exactly (bench/embedded-store/search.ts). MAIN keeps the
-- vector in the row and sends the text and tsvector out of line instead. Applies to passages written
-- from now on; VACUUM FULL "document_chunks" rewrites older ones.
ALTER TABLE "document_chunks" ALTER COLUMN "embedding" SET STORAGE MAIN;
