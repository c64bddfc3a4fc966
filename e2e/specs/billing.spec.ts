import { expect, test } from '@playwright/test';
import { ADMIN_EMAIL } from '../playwright.config.ts';
import { signIn, uniqueEmail } from '../support/auth.ts';
import { balance, ledger } from '../support/credits.ts';
import { addCharacters, adScript, createProjectInUi } from '../support/factories.ts';

test.describe('credits and billing', () => {
  test('a demo purchase raises the balance once per click, the history lists it all, a refund request is decided', async ({
    browser,
    page,
  }) => {
    test.setTimeout(240_000);
    const email = uniqueEmail('buyer');
    await signIn(page, email, { at: '/credits' });
    await expect(page.getByTestId('billing-mode-note')).toContainText('Demo billing: no card is charged.');
    await expect(page.getByTestId('demo-money-banner')).toContainText('Demo money is on');

    // A one-time bundle, double-clicked: 5 credits, once.
    await page.getByRole('button', { name: 'Buy 5 credits · $69' }).dblclick();
    await expect(page.getByText('5 credits added to your balance.')).toBeVisible();
    await expect(balance(page)).toHaveText('18.70');

    // A plan, double-clicked: the Growth plan's 40 credits, once.
    await page.getByTestId('plan-growth').getByRole('button', { name: 'Subscribe' }).dblclick();
    await expect(page.getByText('Successfully subscribed to Growth plan!')).toBeVisible();
    await expect(balance(page)).toHaveText('58.70');
    await expect(page.getByText(/Your plan: Growth \(monthly\)/)).toBeVisible();
    // The plan one has is shown as such, not offered again.
    await expect(page.getByTestId('plan-growth').getByRole('button', { name: 'Current plan' })).toBeDisabled();
    await expect(page.getByTestId('plan-growth').getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
    await expect(page.getByTestId('plan-starter').getByRole('button', { name: 'Subscribe' })).toBeEnabled();

    // A render: the project editor's Generate shows its price; a double click queues one job.
    await createProjectInUi(page, 'Billing e2e project');
    await addCharacters(page, 'a friendly woman in a bright kitchen', 1);
    await page.getByLabel('Script').fill(adScript('Billing serum'));
    await page.getByRole('button', { name: 'Generate · 1.00 credit' }).dblclick();
    await expect(page).toHaveURL(/\/jobs\/\d+$/);
    const jobId = Number(/\/jobs\/(\d+)$/.exec(page.url())![1]);
    expect((await ledger(page)).filter((e) => e.kind === 'hold')).toHaveLength(1);

    // The balance in the sidebar opens the history: every grant, purchase and hold, with its job.
    await balance(page).click();
    await expect(page).toHaveURL(/\/credits\/history$/);
    const rows = page.getByTestId('ledger-row');
    await expect(rows.filter({ hasText: 'Free trial' })).toHaveCount(1);
    await expect(rows.filter({ hasText: '5 credits bundle (demo)' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Growth plan (demo)' })).toHaveCount(1);
    const hold = rows.filter({ hasText: 'Product-in-hand video' }).first();
    await expect(hold.getByRole('link', { name: `Job #${jobId}` })).toBeVisible();

    // When the video is done: report a problem; an administrator approves; the refund shows in the history.
    await page.goto(`/jobs/${jobId}`);
    await page.getByRole('button', { name: 'Report a problem' }).click({ timeout: 180_000 });
    await page.getByLabel('What is wrong?').fill('The product is upside down in her hand');
    await page.getByRole('button', { name: 'Ask for a refund' }).click();
    await expect(page.getByTestId('refund-state')).toHaveText('Refund requested: an administrator will review it.');

    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signIn(admin, ADMIN_EMAIL, { at: '/admin/credits' });
    const request = admin.getByTestId('refund-request').filter({ hasText: email });
    await request.getByRole('button', { name: 'Approve refund' }).click();
    await expect(request.getByText('approved')).toBeVisible();
    // And a grant with a reason, by e-mail.
    await admin.getByLabel('User e-mail').fill(email);
    await admin.getByRole('textbox', { name: 'Credits' }).fill('2.5');
    await admin.getByLabel('Reason').fill('Thanks for the report');
    await admin.getByRole('button', { name: 'Grant credits' }).click();
    await expect(admin.getByText(/Granted 2\.50 credits/)).toBeVisible();
    await adminContext.close();

    await page.goto('/credits/history');
    await expect(rows.filter({ hasText: 'Refund: Billing e2e project' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Thanks for the report' })).toHaveCount(1);
    await expect(balance(page)).toHaveText('61.20');
  });
});
