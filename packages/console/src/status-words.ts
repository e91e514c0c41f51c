/**
 * The words the console shows for the API's status values. Every screen reads statuses through this
 * module, so a status reads the same on the list, the record and in a live update. A value the API
 * adds later still reads as words ("some_new_state" → "Some new state") until it gets its own.
 */

type Words = Readonly<Record<string, string>>;

export const CALL_STATUS_WORDS: Words = {
  initiated: "Starting",
  ringing: "Ringing",
  in_progress: "In progress",
  completed: "Completed",
  ended: "Ended",
  ended_by_customer: "Ended by the caller",
  ended_by_assistant: "Ended by the assistant",
  busy: "Busy",
  no_answer: "No answer",
  failed: "Failed",
};

export const CAMPAIGN_STATUS_WORDS: Words = {
  draft: "Draft",
  active: "Running",
  paused: "Paused",
  completed: "Completed",
};

/**
 * A lead's status in the words of the campaign's progress summary ("3 completed, 1 calling, 2 waiting,
 * …"), so that the leads table and the summary count the same things by the same names.
 */
export const LEAD_STATUS_WORDS: Words = {
  created: "Waiting",
  scheduled: "Waiting",
  processing: "Calling",
  rescheduled: "Rescheduled",
  completed: "Completed",
  reached_max_retries: "Out of retries",
  blacklisted: "Blacklisted",
};

export const KNOWLEDGEBASE_STATUS_WORDS: Words = {
  ACTIVE: "All documents ready",
  EMPTY: "No documents",
  PROCESSING: "Processing documents",
  FAILED: "A document failed",
};

export const DOCUMENT_STATUS_WORDS: Words = {
  ACTIVE: "Ready",
  PROCESSING: "Processing",
  FAILED: "Failed",
};

/** Test runs and their scenarios' results. */
export const TEST_STATUS_WORDS: Words = {
  queued: "Queued",
  pending: "Waiting",
  running: "Running",
  passed: "Passed",
  failed: "Failed",
  error: "Error",
  timed_out: "Timed out",
  cancelled: "Cancelled",
};

export const DELIVERY_STATUS_WORDS: Words = {
  pending: "Pending",
  delivered: "Delivered",
  failed: "Failed",
};

export const ASSISTANT_STATUS_WORDS: Words = {
  active: "Active",
  inactive: "Inactive",
};

export const APPOINTMENT_STATUS_WORDS: Words = {
  booked: "Booked",
  cancelled: "Cancelled",
};

export const CALENDAR_CONNECTION_STATUS_WORDS: Words = {
  active: "Connected",
  broken: "Needs repair",
};

/** A number's subscription; `releasing` is the console's own word for a release asked for. */
export const SUBSCRIPTION_STATUS_WORDS: Words = {
  active: "Active",
  cancelled: "Cancelled, ends with its period",
  none: "No subscription",
  releasing: "Being released",
};

/** "in_progress", "timed-out", "ACTIVE" → "In progress", "Timed out", "Active". */
export function humanize(value: string): string {
  const spaced = value.replace(/[_-]+/g, " ").trim().toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

export function statusWords(words: Words, value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  return Object.hasOwn(words, value) ? (words[value] as string) : humanize(value);
}

export const callStatus = (value: string | null | undefined) => statusWords(CALL_STATUS_WORDS, value);
export const campaignStatus = (value: string | null | undefined) => statusWords(CAMPAIGN_STATUS_WORDS, value);
export const leadStatus = (value: string | null | undefined) => statusWords(LEAD_STATUS_WORDS, value);
export const knowledgebaseStatus = (value: string | null | undefined) =>
  statusWords(KNOWLEDGEBASE_STATUS_WORDS, value);
export const documentStatus = (value: string | null | undefined) => statusWords(DOCUMENT_STATUS_WORDS, value);
export const testStatus = (value: string | null | undefined) => statusWords(TEST_STATUS_WORDS, value);
export const assistantStatus = (value: string | null | undefined) =>
  statusWords(ASSISTANT_STATUS_WORDS, value);
export const appointmentStatus = (value: string | null | undefined) =>
  statusWords(APPOINTMENT_STATUS_WORDS, value);
export const deliveryStatus = (value: string | null | undefined) => statusWords(DELIVERY_STATUS_WORDS, value);
export const calendarConnectionStatus = (value: string | null | undefined) =>
  statusWords(CALENDAR_CONNECTION_STATUS_WORDS, value);
export const subscriptionStatus = (value: string | null | undefined) =>
  statusWords(SUBSCRIPTION_STATUS_WORDS, value);
