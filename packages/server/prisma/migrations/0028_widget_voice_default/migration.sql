-- AlterTable
ALTER TABLE "assistants" ALTER COLUMN "widgetSettings" SET DEFAULT '{"theme":"light","color":"#4f46e5","position":"bottom-right","voice":false}';

