/**
 * Publications whose network is processing a video right now (Bluesky's video service, LinkedIn's
 * video API): progress shows them `waitingFor: "processing"`. In memory only: a restart ends the
 * wait with the attempt.
 */
const processing = new Set<string>();

/** The listener an adapter is handed for one publication. */
export const processingListener = (publicationId: string) => (on: boolean) => {
  if (on) processing.add(publicationId);
  else processing.delete(publicationId);
};

export const isProcessing = (publicationId: string) => processing.has(publicationId);
