import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { FullScreenLoader } from '@/components/layout/full-screen-loader';
import { RequireAuth } from './guard';
import { lazyPage } from './lazy-page';
import { prerenderedRoutes } from './prerendered-routes';
import { AppShell } from './shell/app-shell';

// Public screens
const RegisterPage = lazyPage(() => import('@/features/auth/routes/register-page'), 'RegisterPage');
const LoginPage = lazyPage(() => import('@/features/auth/routes/login-page'), 'LoginPage');
const AuthCallbackPage = lazyPage(() => import('@/features/auth/routes/auth-callback-page'), 'AuthCallbackPage');
const LandingPage = lazyPage(() => import('@/features/landing/routes/landing-page'), 'LandingPage');

// Protected screens
const NewVideoPage = lazyPage(() => import('@/features/new-video/routes/new-video-page'), 'NewVideoPage');
const JobsPage = lazyPage(() => import('@/features/jobs/routes/jobs-page'), 'JobsPage');
const JobDetailsPage = lazyPage(() => import('@/features/jobs/routes/job-details-page'), 'JobDetailsPage');
const ProductInHandEntryPage = lazyPage(
  () => import('@/features/product-in-hand/routes/product-in-hand-entry-page'),
  'ProductInHandEntryPage',
);
const SelectActorPage = lazyPage(
  () => import('@/features/product-in-hand/routes/select-actor-page'),
  'SelectActorPage',
);
const MergePage = lazyPage(() => import('@/features/product-in-hand/routes/merge-page'), 'MergePage');
const AiActorVideoPage = lazyPage(() => import('@/features/placeholders/routes/placeholder-pages'), 'AiActorVideoPage');
const LipSyncPage = lazyPage(() => import('@/features/placeholders/routes/placeholder-pages'), 'LipSyncPage');
const ProjectsPage = lazyPage(() => import('@/features/projects/routes/projects-page'), 'ProjectsPage');
const NewProjectPage = lazyPage(() => import('@/features/projects/routes/new-project-page'), 'NewProjectPage');
const ProjectEditorPage = lazyPage(() => import('@/features/projects/routes/project-editor-page'), 'ProjectEditorPage');
const GeneratePage = lazyPage(() => import('@/features/generate/routes/generate-page'), 'GeneratePage');
const SupportPage = lazyPage(() => import('@/features/support/routes/support-page'), 'SupportPage');
const SettingsPage = lazyPage(() => import('@/features/settings/routes/settings-page'), 'SettingsPage');
const CreatorsPage = lazyPage(() => import('@/features/creators/routes/creators-page'), 'CreatorsPage');
const AvatarsPage = lazyPage(() => import('@/features/avatars/routes/avatars-page'), 'AvatarsPage');
const CreditsPage = lazyPage(() => import('@/features/credits/routes/credits-page'), 'CreditsPage');
const CreditHistoryPage = lazyPage(() => import('@/features/credits/routes/credit-history-page'), 'CreditHistoryPage');
const AdminCreditsPage = lazyPage(() => import('@/features/credits/routes/admin-credits-page'), 'AdminCreditsPage');
const BatchesPage = lazyPage(() => import('@/features/batches/routes/batches-page'), 'BatchesPage');
const BatchPage = lazyPage(() => import('@/features/batches/routes/batch-page'), 'BatchPage');
const HookPacksPage = lazyPage(() => import('@/features/hook-packs/routes/hook-packs-page'), 'HookPacksPage');
const HookPackWizardPage = lazyPage(
  () => import('@/features/hook-packs/routes/hook-pack-wizard-page'),
  'HookPackWizardPage',
);
const HookPackJobsPage = lazyPage(() => import('@/features/hook-packs/routes/hook-pack-jobs-page'), 'HookPackJobsPage');
const HookPackDownloadPage = lazyPage(
  () => import('@/features/hook-packs/routes/hook-pack-download-page'),
  'HookPackDownloadPage',
);

/** Every route of the app (docs/product.md#screens). Protected routes share the sidebar shell. */
export function AppRoutes() {
  return (
    <Suspense fallback={<FullScreenLoader />}>
      <Routes>
        {prerenderedRoutes({ register: RegisterPage, login: LoginPage, landing: LandingPage })}
        <Route path="/auth/callback" element={<AuthCallbackPage />} />
        <Route path="/auth/google/callback" element={<AuthCallbackPage />} />

        <Route
          element={
            <RequireAuth>
              <AppShell />
            </RequireAuth>
          }
        >
          <Route path="/new-video" element={<NewVideoPage />} />
          <Route path="/generated-videos" element={<JobsPage />} />
          <Route path="/jobs" element={<JobsPage />} />
          <Route path="/jobs/:id" element={<JobDetailsPage />} />
          <Route path="/product-in-hand" element={<ProductInHandEntryPage />} />
          <Route path="/product-in-hand/new" element={<ProductInHandEntryPage />} />
          <Route path="/product-in-hand/:projectId/select-actor" element={<SelectActorPage />} />
          <Route path="/product-in-hand/:projectId/merge" element={<MergePage />} />
          <Route path="/ai-actor-video" element={<AiActorVideoPage />} />
          <Route path="/ai-actor-video/new" element={<AiActorVideoPage />} />
          <Route path="/lip-sync" element={<LipSyncPage />} />
          <Route path="/lip-sync/new" element={<LipSyncPage />} />
          <Route path="/projects" element={<ProjectsPage />} />
          <Route path="/projects/new" element={<NewProjectPage />} />
          <Route path="/projects/:id" element={<ProjectEditorPage />} />
          <Route path="/generate" element={<GeneratePage />} />
          <Route path="/support" element={<SupportPage />} />
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/avatars" element={<AvatarsPage />} />
          <Route path="/creators" element={<CreatorsPage />} />
          <Route path="/credits" element={<CreditsPage />} />
          <Route path="/credits/history" element={<CreditHistoryPage />} />
          <Route path="/admin/credits" element={<AdminCreditsPage />} />
          <Route path="/batches" element={<BatchesPage />} />
          <Route path="/batches/:id" element={<BatchPage />} />
          <Route path="/hook-packs" element={<HookPacksPage />} />
          <Route path="/hook-packs/new" element={<HookPackWizardPage />} />
          <Route path="/hook-packs/new/:id" element={<HookPackWizardPage />} />
          <Route path="/hook-packs/jobs/:id" element={<HookPackJobsPage />} />
          <Route path="/hook-packs/:id/download" element={<HookPackDownloadPage />} />
        </Route>

        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Suspense>
  );
}
