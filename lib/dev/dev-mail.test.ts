import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { startDevMail } from './dev-mail';

describe("npm run dev's mail catcher", () => {
  it('gives the gateway an SMTP_URL whose messages show in the printed inbox, and allows every test-mode address', async () => {
    const mail = await startDevMail();
    try {
      expect(mail.env.EMAIL_TEST_RECIPIENTS).toBe('*');
      // freePort's range, below the kernel's ephemeral ports: never one `listen(0)` just handed another stack.
      for (const p of [mail.smtpPort, mail.webPort]) expect(p >= 20_000 && p < 32_768, `port ${p}`).toBe(true);
      const to = `dev-${process.pid}@gmail.com`;
      await nodemailer.createTransport(mail.env.SMTP_URL!).sendMail({ from: 'a@localhost', to, subject: 'Receipt', text: 'hello' });
      const inbox = (await (await fetch(`${mail.inboxUrl.replace('localhost', '127.0.0.1')}/api/email`)).json()) as {
        subject: string;
        to: { address: string }[];
      }[];
      expect(inbox.find((m) => m.to.some((a) => a.address === to))?.subject).toBe('Receipt');
    } finally {
      await mail.stop();
    }
  });
});
