ALTER TABLE `media` ADD `title` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `media` ADD `captions` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `media` ADD `duration_ms` integer;--> statement-breakpoint
ALTER TABLE `media` ADD `pages` integer;