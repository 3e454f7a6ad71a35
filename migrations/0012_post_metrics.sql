CREATE TABLE `metric_tracks` (
	`publication_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`platform` text NOT NULL,
	`state` text DEFAULT 'tracking' NOT NULL,
	`step` integer DEFAULT 0 NOT NULL,
	`next_at` integer,
	`last_error` text,
	`failures` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`publication_id`) REFERENCES `publications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `metric_tracks_due_idx` ON `metric_tracks` (`next_at`);--> statement-breakpoint
CREATE TABLE `post_metrics` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`publication_id` text NOT NULL,
	`at` integer NOT NULL,
	`likes` integer,
	`reposts` integer,
	`replies` integer,
	`quotes` integer,
	`impressions` integer,
	FOREIGN KEY (`publication_id`) REFERENCES `publications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `post_metrics_pub_idx` ON `post_metrics` (`publication_id`,`at`);--> statement-breakpoint
ALTER TABLE `publications` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `publications` ADD `edited_at` text;