import Foundation

/// jack2 keeps the servers it runs in a table of 8 slots in shared memory
/// (`/dev/shm/jack-shm-registry`, `jack_shm_header_t` in jack2's shm.h). A
/// jackd that dies without its clean shutdown (SIGKILL, a crash, sometimes a
/// SIGTERM with clients attached) keeps its slot for good; after eight of
/// those no server starts ("Too many servers already active").
///
/// `reclaimDeadServerSlots` frees the slots whose process no longer exists,
/// the check jack2 itself makes only for a slot of the same server name.
/// `PrivateJackServer` runs it before it starts a server.
public enum JackRegistry {
    static let path = "/dev/shm/jack-shm-registry"
    // jack_shm_header_t: magic u32 'JACK', protocol u16 (+2), type, size,
    // hdr_len, entry_len (4 bytes each), then server[8] of { pid_t pid;
    // char name[257]; } padded to 264 bytes.
    static let magic: UInt32 = 0x4A41_434B
    static let firstSlotOffset = 24
    static let slotBytes = 264
    static let slotCount = 8

    /// Frees the slots of servers whose process is gone; returns how many.
    @discardableResult
    public static func reclaimDeadServerSlots() -> Int {
        let fd = open(path, O_RDWR)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        let length = firstSlotOffset + slotBytes * slotCount
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) >= length,
              let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), base != MAP_FAILED
        else { return 0 }
        defer { munmap(base, length) }
        guard base.load(as: UInt32.self) == magic else { return 0 }
        var reclaimed = 0
        for slot in 0..<slotCount {
            let entry = base + firstSlotOffset + slot * slotBytes
            let pid = entry.load(as: Int32.self)
            guard pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            memset(entry, 0, slotBytes)
            reclaimed += 1
        }
        return reclaimed
    }
}
