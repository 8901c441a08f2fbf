import { expect, type Page, test } from '@playwright/test';
import { signedIn } from './support';

const SELLER_NAME = 'Kesar Crafts';
const REJECTION = 'KYC was rejected: The GST certificate is unreadable. Upload a clear scan.';
const FILE_NAME = 'gst-certificate-clear-scan.pdf';

/** A real one-page PDF (with a correct cross-reference table), built here so the test needs no fixture. */
function tinyPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const verificationCard = (page: Page) => page.getByRole('region', { name: 'Verification' });

test('a seller whose KYC was rejected reads why, uploads a clear scan, and is active once an admin approves', async ({
  browser,
}) => {
  const seller = await signedIn(browser, 'kyc@demo.local');
  const admin = await signedIn(browser, 'admin@demo.local');
  try {
    // The seller lands on their dashboard, and the verification comes first: status, reason, what to send.
    const page = seller.page;
    await expect(page).toHaveURL(/\/sellers\/general-dashboard$/);
    await expect(page.getByRole('heading', { name: SELLER_NAME, level: 1 })).toBeVisible();
    const card = verificationCard(page);
    await expect(card).toBeVisible();
    await expect(card.getByText('Pending KYC', { exact: true })).toBeVisible();
    await expect(card.getByRole('alert')).toContainText(REJECTION);
    const papers = card.getByRole('list', { name: 'KYC documents to upload' });
    for (const kind of ['Identity proof', 'Address proof', 'Tax registration'])
      await expect(papers).toContainText(kind);
    await expect(card.getByText('No documents yet')).toBeVisible();
    await expect(page.getByText('Verified', { exact: true })).toHaveCount(0);

    // Upload the GST certificate again, as a clear scan.
    await card.getByLabel('Kind').selectOption('tax');
    await card.getByTestId('document-input').setInputFiles({
      name: FILE_NAME,
      mimeType: 'application/pdf',
      buffer: tinyPdf(),
    });
    const documents = card.getByRole('table', { name: 'Documents' });
    const uploaded = documents.getByRole('row', { name: new RegExp(FILE_NAME) });
    await expect(uploaded).toContainText('Tax registration');
    // The seller can fetch back what they sent.
    const download = page.waitForEvent('download');
    await uploaded.getByRole('button', { name: `Download ${FILE_NAME}` }).click();
    expect((await download).suggestedFilename()).toBe(FILE_NAME);

    // The admin finds the seller in Pending KYC, sees the new document and approves the KYC.
    const adminPage = admin.page;
    await adminPage
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Manage Sellers' })
      .click();
    await adminPage.getByRole('tab', { name: /^Pending KYC/ }).click();
    await adminPage.getByLabel('Search sellers').fill(SELLER_NAME);
    const row = adminPage.getByRole('row', { name: new RegExp(SELLER_NAME) });
    await expect(row).toContainText('Pending KYC');
    await row.getByRole('link', { name: SELLER_NAME }).click();
    const drawer = adminPage
      .getByRole('dialog')
      .filter({ has: adminPage.getByRole('button', { name: 'Close seller details' }) });
    await expect(drawer.getByText('Status: Pending KYC')).toBeVisible();
    await drawer.getByRole('tab', { name: 'Documents' }).click();
    await expect(drawer.getByRole('row', { name: new RegExp(FILE_NAME) })).toContainText('Tax registration');
    await drawer.getByRole('tab', { name: 'History' }).click();
    await expect(drawer.getByRole('list', { name: 'Update history' })).toContainText(FILE_NAME);
    // The lifecycle actions are on the first tab.
    await drawer.getByRole('tab', { name: 'Profile' }).click();
    await drawer.getByRole('button', { name: 'Approve KYC' }).click();
    await expect(drawer.getByText('Status: Active')).toBeVisible();

    // The seller reloads: active and verified, with no verification card any more.
    await page.reload();
    await expect(page.getByRole('heading', { name: SELLER_NAME, level: 1 })).toBeVisible();
    await expect(page.getByText('Verified', { exact: true })).toBeVisible();
    await expect(verificationCard(page)).toHaveCount(0);
    await expect(page.getByText(REJECTION)).toHaveCount(0);
  } finally {
    await seller.context.close();
    await admin.context.close();
  }
});
