/** VetClube's paw mark, as the PWA's icon draws it (web/public/favicon.svg). */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width={size} height={size} aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#0f766e" />
      <g fill="#fff">
        <ellipse cx="20" cy="24" rx="5" ry="7" />
        <ellipse cx="32" cy="18" rx="5" ry="7" />
        <ellipse cx="44" cy="24" rx="5" ry="7" />
        <path d="M32 30c-9 0-16 9-16 15 0 4 3 6 7 6 3 0 6-2 9-2s6 2 9 2c4 0 7-2 7-6 0-6-7-15-16-15z" />
      </g>
    </svg>
  )
}
