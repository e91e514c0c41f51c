import { graphql } from "../api/graphql.ts";

export const KnowledgebasesQuery = graphql(`
  query ConsoleKnowledgebases {
    knowledgebases { id name description status documentsCount assistantsCount }
  }
`);

export const CreateKnowledgebaseMutation = graphql(`
  mutation ConsoleCreateKnowledgebase($input: KnowledgebaseInput!) {
    createKnowledgebase(input: $input) { id }
  }
`);

export const DeleteKnowledgebaseMutation = graphql(`
  mutation ConsoleDeleteKnowledgebase($id: Int!) {
    deleteKnowledgebase(id: $id) { deletedId }
  }
`);

export const UpdateKnowledgebaseMutation = graphql(`
  mutation ConsoleUpdateKnowledgebase($id: Int!, $input: KnowledgebaseInput!) {
    updateKnowledgebase(id: $id, input: $input) { id name description chunkMaxTokens chunkOverlapTokens }
  }
`);

export const KnowledgebaseQuery = graphql(`
  query ConsoleKnowledgebase($id: Int!) {
    knowledgebase(id: $id) {
      id name description status assistantsCount chunkMaxTokens chunkOverlapTokens
      documents {
        id name type status stage pagesDone pagesTotal chunkCount failureReason fileName url sizeBytes createdAt
      }
    }
  }
`);

export const CreateDocumentMutation = graphql(`
  mutation ConsoleCreateDocument($knowledgebaseId: Int!, $input: CreateDocumentInput!) {
    createDocument(knowledgebaseId: $knowledgebaseId, input: $input) { id }
  }
`);

export const DeleteDocumentMutation = graphql(`
  mutation ConsoleDeleteDocument($id: Int!) {
    deleteDocument(id: $id) { deletedId }
  }
`);

export const KnowledgebaseStatusSubscription = graphql(`
  subscription ConsoleKnowledgebaseStatus($id: Int!) {
    knowledgebaseStatus(id: $id) {
      status
      document { documentId status stage pagesDone pagesTotal chunkCount failureReason }
    }
  }
`);

export const SearchKnowledgebaseQuery = graphql(`
  query ConsoleSearchKnowledgebase($id: Int!, $query: String!) {
    searchKnowledgebase(id: $id, query: $query, limit: 8) { chunkId content documentName relevance source }
  }
`);

export const ReprocessDocumentMutation = graphql(`
  mutation ConsoleReprocessDocument($id: Int!) {
    reprocessDocument(id: $id) { id status stage failureReason }
  }
`);

export const DocumentPassagesQuery = graphql(`
  query ConsoleDocumentPassages($id: Int!, $offset: Int!, $limit: Int!) {
    document(id: $id) { id name chunkCount passages(offset: $offset, limit: $limit) { id ordinal content tokenCount source } }
  }
`);
