import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config';
import { startApp, type TestApp } from './helpers/app';
import { Client } from './helpers/client';

/** `GET /api/getAppConfig.php`: what the web app needs before sign-in (the chat button's number). */

describe('SUPPORT_CHAT_PHONE', () => {
  test('digits only, 6 to 15, a leading + dropped; anything else stops start-up with a clear message', () => {
    assert.equal(loadConfig({}).supportChatPhone, null);
    assert.equal(loadConfig({ SUPPORT_CHAT_PHONE: '' }).supportChatPhone, null);
    assert.equal(loadConfig({ SUPPORT_CHAT_PHONE: '+447700900123' }).supportChatPhone, '447700900123');
    assert.equal(loadConfig({ SUPPORT_CHAT_PHONE: '15551234567' }).supportChatPhone, '15551234567');
    assert.equal(loadConfig({ SUPPORT_CHAT_PHONE: '123456' }).supportChatPhone, '123456');
    for (const bad of ['+44 7700 900123', '12345', '1234567890123456', '++447700900123', 'wa.me/447700900123', '44-7700-900123']) {
      assert.throws(() => loadConfig({ SUPPORT_CHAT_PHONE: bad }), (err: unknown) => err instanceof ConfigError && /SUPPORT_CHAT_PHONE must be a phone number in international format, digits only/.test(err.message), bad);
    }
  });

  test('LEGAL_DIR must name an existing directory', () => {
    assert.throws(() => loadConfig({ LEGAL_DIR: '/nonexistent/legal-documents' }), /LEGAL_DIR must be an existing directory/);
    assert.equal(loadConfig({}).legalDir, null);
  });
});

describe('GET /api/getAppConfig.php', () => {
  let plain: TestApp;
  let withChat: TestApp;
  before(async () => {
    plain = await startApp();
    withChat = await startApp({ config: { supportChatPhone: loadConfig({ SUPPORT_CHAT_PHONE: '+447700900123' }).supportChatPhone } });
  });
  after(async () => {
    await plain.close();
    await withChat.close();
  });

  test('answers null when no chat number is set, signed out', async () => {
    const r = await new Client(plain).get('/getAppConfig.php');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'success', supportChatPhone: null, marginCallLevel: 100, stopOutLevel: 50 });
  });

  test('answers the number in digits when set', async () => {
    const r = await new Client(withChat).get('/getAppConfig.php');
    assert.deepEqual(r.body, { status: 'success', supportChatPhone: '447700900123', marginCallLevel: 100, stopOutLevel: 50 });
  });
});
