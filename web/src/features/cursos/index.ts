// What other features may use of courses: the home card and the profile's certificates.
export { LastCourseCard } from './components/LastCourseCard'
export { MyCertificates } from './components/MyCertificates'
