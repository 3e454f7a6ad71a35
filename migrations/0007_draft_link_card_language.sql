ALTER TABLE `drafts` ADD `language` text;--> statement-breakpoint
ALTER TABLE `drafts` ADD `link_card` text;