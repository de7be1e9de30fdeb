package payload

// kind is what a no-follow metadata read says a filesystem node is.
type kind int

const (
	kindOther kind = iota // FIFO, socket, device, or anything else that is not staged
	kindFile
	kindDir
	kindLink // symbolic link, junction or any other reparse point
)

// nodeInfo is the no-follow metadata of one node. id identifies the object (Unix:
// device and inode) so an open can be compared with the stat that preceded it.
type nodeInfo struct {
	kind kind
	size int64
	id   fileID
}

// fileID is the identity of a filesystem object; the zero value means unknown.
type fileID struct{ dev, ino uint64 }
