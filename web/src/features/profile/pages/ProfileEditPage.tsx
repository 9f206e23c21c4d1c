// Placeholder from the app shell so the router builds; the auth/profile
// engineer replaces this file (keep the default export).
export default function ProfileEditPage() {
  return (
    <main className="flex min-h-[50vh] flex-col items-center justify-center gap-2 p-6 text-center">
      <h1 className="text-2xl font-bold">Editar perfil</h1>
      <p className="text-muted-foreground">Em breve.</p>
    </main>
  )
}
