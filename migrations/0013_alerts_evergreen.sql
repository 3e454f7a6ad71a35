CREATE TABLE `alert_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`alert_id` text NOT NULL,
	`event_id` integer,
	`event_type` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_at` integer NOT NULL,
	`claimed_until` integer,
	`last_error` text,
	`done_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`alert_id`) REFERENCES `alerts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alert_deliveries_event_unique` ON `alert_deliveries` (`alert_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `alert_deliveries_due_idx` ON `alert_deliveries` (`status`,`next_at`);--> statement-breakpoint
CREATE TABLE `alert_notices` (
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`shown_url` text NOT NULL,
	`events` text NOT NULL,
	`has_secret` integer DEFAULT 0 NOT NULL,
	`seen_event_id` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alerts_user_idx` ON `alerts` (`user_id`);--> statement-breakpoint
CREATE TABLE `evergreen_drafts` (
	`draft_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`min_days_between` integer DEFAULT 30 NOT NULL,
	`max_repeats` integer,
	`variants` text DEFAULT '[]' NOT NULL,
	`stalled` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`draft_id`) REFERENCES `drafts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `evergreen_drafts_user_idx` ON `evergreen_drafts` (`user_id`);--> statement-breakpoint
CREATE TABLE `evergreen_fills` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`draft_id` text NOT NULL,
	`set_id` text NOT NULL,
	`slot_at` integer NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`skipped` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`draft_id`) REFERENCES `drafts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `evergreen_fills_slot_unique` ON `evergreen_fills` (`set_id`,`slot_at`);--> statement-breakpoint
CREATE INDEX `evergreen_fills_draft_idx` ON `evergreen_fills` (`draft_id`);