import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { PASSWORD_RESET_VALID_MINUTES } from '@tradeport/contracts';
import type { MailConfig } from '../config';

/**
 * Outgoing mail. With `SMTP_URL` set, mails go to that server through nodemailer; without it
 * nothing leaves the machine: each mail is logged (recipient and subject only) and written as one
 * JSON file into the dev outbox, where a developer or a browser test reads it. Outbox files hold
 * working reset links in plain text, so they are deleted once a link could no longer be used
 * (`OUTBOX_KEEP_MS`, checked every minute and at start).
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** What a file in the dev outbox holds. */
export interface OutboxFile extends MailMessage {
  sentAt: string;
}

export interface MailLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

interface Transport {
  deliver(message: MailMessage): Promise<void>;
  close(): void;
}

/** How long an outbox file is kept: as long as the reset link in it can work. */
export const OUTBOX_KEEP_MS = PASSWORD_RESET_VALID_MINUTES * 60_000;
const OUTBOX_PRUNE_EVERY_MS = 60_000;

/** An outbox file's name starts with its sending time: `2026-03-04T10-00-00-000Z-000001-ab12cd34.json`. */
const OUTBOX_NAME = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-\d{6}-[0-9a-f]{8}\.json$/;
export function outboxFileTime(name: string): number | null {
  const m = OUTBOX_NAME.exec(name);
  return m ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`) : null;
}

const SEND_TIMEOUT_MS = 20_000;

function smtpTransport(config: MailConfig & { smtpUrl: string }, log: MailLog): Transport {
  const transporter = nodemailer.createTransport({
    url: config.smtpUrl,
    // A mail server that hangs must not hold a request, or shutdown, for minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: SEND_TIMEOUT_MS,
  });
  return {
    async deliver(message) {
      const info = await transporter.sendMail({ from: config.from, ...message });
      log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
    },
    close: () => transporter.close(),
  };
}

function outboxTransport(config: MailConfig, now: () => number, log: MailLog): Transport {
  const dir = resolve(config.outboxDir);
  let sequence = 0;
  return {
    async deliver(message) {
      const sentAt = new Date(now()).toISOString();
      const file: OutboxFile = { to: message.to, subject: message.subject, text: message.text, ...(message.html === undefined ? {} : { html: message.html }), sentAt };
      await mkdir(dir, { recursive: true });
      // Names sort by time; the file appears complete (written aside, then renamed), so a reader
      // polling the directory never sees half a mail.
      sequence = (sequence + 1) % 1e6;
      const name = `${sentAt.replace(/[:.]/g, '-')}-${String(sequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}.json`;
      await writeFile(join(dir, `.${name}.tmp`), `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
      await rename(join(dir, `.${name}.tmp`), join(dir, name));
      log.info({ to: message.to, subject: message.subject, file: name }, 'mail not sent (SMTP_URL is not set): written to the dev outbox');
    },
    close: () => undefined,
  };
}

/**
 * Sends in the background: the caller's request does not wait for the mail server, so neither a
 * slow server nor the time a send takes tells a visitor anything. Failures are logged. `idle()`
 * resolves when every mail handed over so far has been sent or has failed (tests, shutdown).
 */
export class Mailer {
  private readonly pending = new Set<Promise<void>>();

  private pruneTimer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly transport: Transport,
    private readonly log: MailLog,
    readonly mode: 'smtp' | 'outbox',
    private readonly outbox: { dir: string; now: () => number } | null = null,
  ) {
    if (!outbox) return;
    void this.pruneOutbox();
    this.pruneTimer = setInterval(() => void this.pruneOutbox(), OUTBOX_PRUNE_EVERY_MS);
    this.pruneTimer.unref();
  }

  static create(config: MailConfig, now: () => number, log: MailLog): Mailer {
    if (config.smtpUrl) return new Mailer(smtpTransport({ ...config, smtpUrl: config.smtpUrl }, log), log, 'smtp');
    return new Mailer(outboxTransport(config, now, log), log, 'outbox', { dir: resolve(config.outboxDir), now });
  }

  /**
   * Deletes the outbox's mails older than `OUTBOX_KEEP_MS` (by the time in their names; files it
   * did not write are left alone). Returns how many were deleted.
   */
  async pruneOutbox(): Promise<number> {
    if (!this.outbox) return 0;
    let names: string[];
    try {
      names = await readdir(this.outbox.dir);
    } catch {
      return 0; // no outbox yet
    }
    const cutoff = this.outbox.now() - OUTBOX_KEEP_MS;
    let deleted = 0;
    for (const name of names) {
      const at = outboxFileTime(name);
      if (at === null || at > cutoff) continue;
      try {
        await unlink(join(this.outbox.dir, name));
        deleted++;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn({ file: name, err: err instanceof Error ? err.message : String(err) }, 'could not delete an old outbox mail');
      }
    }
    return deleted;
  }

  send(message: MailMessage): void {
    this.track(this.deliver(message));
  }

  /**
   * Sends the mail a background task prepares (nothing when it yields null). The task is tracked
   * like a mail in flight, so `idle()` and `close()` wait for it too; its failure is logged.
   */
  sendWhenReady(preparing: Promise<MailMessage | null>): void {
    this.track(
      preparing.then(
        (message) => (message ? this.deliver(message) : undefined),
        (err: unknown) => this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'a mail could not be prepared'),
      ),
    );
  }

  private deliver(message: MailMessage): Promise<void> {
    return this.transport.deliver(message).catch((err: unknown) => {
      // The error may quote the SMTP conversation, never the message body; the body holds secrets.
      this.log.warn({ to: message.to, subject: message.subject, err: err instanceof Error ? err.message : String(err) }, 'mail could not be sent');
    });
  }

  private track(work: Promise<void>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Waits (bounded) for mails in flight, then closes the connection pool. */
  async close(): Promise<void> {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.idle(), new Promise<void>((r) => (timer = setTimeout(r, SEND_TIMEOUT_MS).unref()))]);
    clearTimeout(timer);
    this.transport.close();
  }
}
