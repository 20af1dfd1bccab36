import { chromium } from 'playwright-core';
const base = 'http://localhost:3000';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
page.on('console', (m) => { if (m.type() === 'error') console.log('console error:', m.text()); });
await page.goto(base + '/auth');
await page.getByRole('tab', { name: 'Register' }).click();
const username = 'forms' + Date.now().toString(36);
await page.getByLabel('Username').fill(username);
await page.getByLabel('Password', { exact: true }).fill('secret1');
await page.getByLabel('Confirm password').fill('secret1');
await page.getByRole('button', { name: 'Register' }).click();
await page.waitForURL(base + '/');
await page.goto(base + '/new-project');
await page.getByLabel('Cost estimate (USD)').fill('-5');
await page.getByRole('button', { name: 'Create Project' }).click();
await page.waitForTimeout(300);
await page.screenshot({ path: '/tmp/form-errors.png', fullPage: true });
await page.getByLabel('Project name').fill('Link tester');
await page.getByLabel('Cost estimate (USD)').fill('19.99');
for (const [label, value] of [['GitHub', 'github.com/me/x'], ['Twitter', '@me'], ['Website', 'not a url with spaces']]) {
  const f = page.getByLabel(label, { exact: false }).first();
  if (await f.count()) await f.fill(value); else console.log('no field', label);
}
await page.getByRole('button', { name: 'Create Project' }).click();
await page.waitForTimeout(300);
await page.screenshot({ path: '/tmp/form-links.png', fullPage: true });
await browser.close();
