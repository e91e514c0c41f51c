import { timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import type { RestDocumentFragment } from "../generated/graphql.ts";
import { type RouteDefinition, route } from "../route.ts";

// Fragments are found by name when an operation spreads them; this call declares it for codegen.
graphql(`
  fragment RestDocument on Document {
    id name description type typeLabel status statusLabel failureReason createdAt updatedAt
  }
`);

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
