// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title AnchorRegistry: public anchors of closed OpenJury jobs.
/// @notice Anyone may post; the service trusts only a receipt whose log was emitted by the
/// configured registry with the job's own root and salt (docs/onchain.md#anchors-on-chain).
contract AnchorRegistry {
    event AnchorPosted(bytes32 indexed root, string uri, uint32 indexed schemaVersion, bytes32 indexed salt);

    /// @notice Records a snapshot root, where the snapshot is served, its schema version and salt.
    function postAnchor(bytes32 root, string calldata uri, uint32 schemaVersion, bytes32 salt) external {
        emit AnchorPosted(root, uri, schemaVersion, salt);
    }
}
