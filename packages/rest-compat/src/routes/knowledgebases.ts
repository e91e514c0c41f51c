import { z } from "zod";
import { timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import type { RestDocumentFragment } from "../generated/graphql.ts";
import { formatA, message } from "../openapi/schemas.ts";
import { type RouteDefinition, route } from "../route.ts";

// Fragments are found by name when an operation spreads them; this call declares it for codegen.
graphql(`
  fragment RestDocument on Document {
    id name description type typeLabel status statusLabel failureReason createdAt updatedAt
  }
`);

/** The reference's shape of `documentBody`. */
const documentSchema = z.object({
  id: z.int(),
  name: z.string(),
  description: z.string().nullable(),
  type: z.enum(["website", "pdf", "txt", "docx"]),
  type_label: z.string(),
  status: z.enum(["processing", "active", "failed"]),
  status_label: z.string(),
  failure_reason: z.string().nullable(),
  created_at: formatA,
  updated_at: formatA,
});

function documentBody(document: RestDocumentFragment) {
  return {
    id: document.id,
    name: document.name,
    description: document.description,
    type: document.type.toLowerCase(),
    type_label: document.typeLabel,
    status: document.status.toLowerCase(),
    status_label: document.statusLabel,
    failure_reason: document.failureReason,
    created_at: timestampA(document.createdAt),
    updated_at: timestampA(document.updatedAt),
  };
}

/** Numbers in form bodies arrive as strings; GraphQL refuses anything that is not an integer. */
function intField(value: unknown): unknown {
  return typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
}

/** `links` as JSON ([{link}]) or as form fields (links[0][link]); a bare string list is accepted too. */
function linksField(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((entry) => (typeof entry === "string" ? { link: entry } : entry));
}

export const knowledgebaseRoutes: RouteDefinition[] = [
  route({
    method: "GET",
    path: "/user/knowledgebases",
    doc: {
      tag: "Knowledge bases",
      summary: "List the account's knowledge bases, newest first",
      response: {
        description: "The knowledge bases",
        schema: z.object({
          data: z.array(
            z.object({
              id: z.int(),
              name: z.string(),
              description: z.string().nullable(),
              status: z.enum(["empty", "processing", "active", "failed"]),
              status_label: z.string(),
              documents_count: z.int(),
              assistants_count: z.int(),
              created_at: formatA,
              updated_at: formatA,
            }),
          ),
        }),
      },
      example: {},
    },
    operation: graphql(`query RestKnowledgebases {
      knowledgebases { id name description status statusLabel documentsCount assistantsCount createdAt updatedAt }
    }
    `),
    respond: (data) => ({
      body: {
        data: data.knowledgebases.map((knowledgebase) => ({
          id: knowledgebase.id,
          name: knowledgebase.name,
          description: knowledgebase.description,
          status: knowledgebase.status.toLowerCase(),
          status_label: knowledgebase.statusLabel,
          documents_count: knowledgebase.documentsCount,
          assistants_count: knowledgebase.assistantsCount,
          created_at: timestampA(knowledgebase.createdAt),
          updated_at: timestampA(knowledgebase.updatedAt),
        })),
      },
    }),
  }),
  route({
    method: "GET",
    path: "/user/knowledgebases/{knowledgebaseId}/documents",
    doc: {
      tag: "Knowledge bases",
      summary: "List a knowledge base's documents, newest first",
      pathParams: { knowledgebaseId: "The knowledge base" },
      response: { description: "The documents", schema: z.object({ data: z.array(documentSchema) }) },
      errors: { 404: "Unknown knowledge base, or another account's" },
      example: { params: { knowledgebaseId: 1 } },
    },
    params: { knowledgebaseId: "int" },
    operation: graphql(`query RestDocuments($knowledgebaseId: Int!) {
      documents(knowledgebaseId: $knowledgebaseId) { ...RestDocument }
    }
    `),
    variables: ({ params }) => ({ knowledgebaseId: Number(params.knowledgebaseId) }),
    respond: (data) => ({ body: { data: data.documents.map(documentBody) } }),
  }),
  route({
    method: "POST",
    path: "/user/knowledgebases/{knowledgebaseId}/documents",
    doc: {
      tag: "Knowledge bases",
      summary: "Add a document (a file, a website or pages); it is processed in the background",
      description: "JSON, form or multipart; `file` (at most 20 MB) needs multipart.",
      pathParams: { knowledgebaseId: "The knowledge base" },
      body: {
        multipart: true,
        schema: z.object({
          name: z.string().max(255),
          description: z.string().max(255).optional(),
          type: z.enum(["website", "pdf", "txt", "docx"]),
          url: z.string().optional().meta({ description: "Websites: the main URL (or give links)" }),
          links: z.array(z.object({ link: z.string() })).optional(),
          relative_links_limit: z.int().min(1).max(50).optional(),
          file: z.string().meta({ format: "binary", description: "pdf, txt, docx" }).optional(),
        }),
      },
      response: {
        status: 201,
        description: "Created, status `processing`",
        schema: z.object({
          message: z.string(),
          data: documentSchema.omit({ updated_at: true, failure_reason: true }),
        }),
      },
      errors: { 404: "Unknown knowledge base, or another account's" },
      example: {
        params: { knowledgebaseId: 1 },
        body: { name: "Opening hours", type: "website", url: "https://example.com/hours" },
      },
    },
    params: { knowledgebaseId: "int" },
    operation: graphql(`mutation RestCreateDocument($knowledgebaseId: Int!, $input: CreateDocumentInput!) {
      createDocument(knowledgebaseId: $knowledgebaseId, input: $input) { ...RestDocument }
    }
    `),
    variables: ({ params, body }) => ({
      knowledgebaseId: Number(params.knowledgebaseId),
      input: {
        name: body.name,
        description: body.description,
        type: body.type,
        url: body.url,
        links: linksField(body.links),
        relativeLinksLimit: intField(body.relative_links_limit),
        file: body.file,
      },
    }),
    respond: (data) => {
      const {
        updated_at: _updatedAt,
        failure_reason: _reason,
        ...document
      } = documentBody(data.createDocument);
      return { status: 201, body: { message: "Document created successfully.", data: document } };
    },
  }),
  route({
    method: "GET",
    path: "/user/knowledgebases/{knowledgebaseId}/documents/{documentId}",
    doc: {
      tag: "Knowledge bases",
      summary: "Read one document, with its processing status",
      pathParams: { knowledgebaseId: "The knowledge base", documentId: "The document" },
      response: { description: "The document", schema: z.object({ data: documentSchema }) },
      errors: { 404: "Unknown document or knowledge base, or another account's" },
      example: { params: { knowledgebaseId: 1, documentId: 1 } },
    },
    params: { knowledgebaseId: "int", documentId: "int" },
    operation: graphql(`query RestDocument($id: Int!, $knowledgebaseId: Int!) {
      document(id: $id, knowledgebaseId: $knowledgebaseId) { ...RestDocument }
    }
    `),
    variables: ({ params }) => ({
      id: Number(params.documentId),
      knowledgebaseId: Number(params.knowledgebaseId),
    }),
    respond: (data) => ({ body: { data: documentBody(data.document) } }),
  }),
  route({
    method: "PUT",
    path: "/user/knowledgebases/{knowledgebaseId}/documents/{documentId}",
    doc: {
      tag: "Knowledge bases",
      summary: "Rename a document or change its description",
      pathParams: { knowledgebaseId: "The knowledge base", documentId: "The document" },
      body: {
        schema: z.object({
          name: z.string().max(255).optional(),
          description: z.string().max(255).optional(),
        }),
      },
      response: {
        description: "Updated",
        schema: z.object({
          message: z.string(),
          data: documentSchema.omit({ created_at: true, failure_reason: true }),
        }),
      },
      errors: { 404: "Unknown document or knowledge base, or another account's" },
      example: { params: { knowledgebaseId: 1, documentId: 1 }, body: { name: "Opening hours (summer)" } },
    },
    params: { knowledgebaseId: "int", documentId: "int" },
    operation:
      graphql(`mutation RestUpdateDocument($id: Int!, $knowledgebaseId: Int!, $input: UpdateDocumentInput!) {
      updateDocument(id: $id, knowledgebaseId: $knowledgebaseId, input: $input) { ...RestDocument }
    }
    `),
    variables: ({ params, body }) => ({
      id: Number(params.documentId),
      knowledgebaseId: Number(params.knowledgebaseId),
      input: {
        name: body.name,
        description: body.description,
        // Passed on only to be refused with a field message: content cannot change.
        type: body.type,
        url: body.url,
        links: linksField(body.links),
        relativeLinksLimit: intField(body.relative_links_limit),
      },
    }),
    respond: (data) => {
      const {
        created_at: _createdAt,
        failure_reason: _reason,
        ...document
      } = documentBody(data.updateDocument);
      return { body: { message: "Document updated successfully.", data: document } };
    },
  }),
  route({
    method: "DELETE",
    path: "/user/knowledgebases/{knowledgebaseId}/documents/{documentId}",
    doc: {
      tag: "Knowledge bases",
      summary: "Delete a document and its chunks",
      pathParams: { knowledgebaseId: "The knowledge base", documentId: "The document" },
      response: { description: "Deleted", schema: message("Document deleted successfully.") },
      errors: { 404: "Unknown document or knowledge base, or another account's" },
      example: { params: { knowledgebaseId: 1, documentId: 1 } },
    },
    params: { knowledgebaseId: "int", documentId: "int" },
    operation: graphql(`mutation RestDeleteDocument($id: Int!, $knowledgebaseId: Int!) {
      deleteDocument(id: $id, knowledgebaseId: $knowledgebaseId) { deletedId }
    }
    `),
    variables: ({ params }) => ({
      id: Number(params.documentId),
      knowledgebaseId: Number(params.knowledgebaseId),
    }),
    respond: () => ({ body: { message: "Document deleted successfully." } }),
  }),
];
