-- Media streams: the nonce of the single-use token a carrier presents when it connects a call's audio.
-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "mediaStreamNonce" TEXT;
