// What other features may use of the community: the public profile's posts and block control.
export { BlockUserButton } from './components/BlockUserButton'
export { RecentPosts } from './components/RecentPosts'
