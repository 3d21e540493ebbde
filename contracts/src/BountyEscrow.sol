// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IERC3009} from "./IERC3009.sol";

/// @title BountyEscrow: the USDC bounties of OpenJury jobs, held from funding, paid by the verdict.
/// @notice An escrow is a slot per (jobKey, sponsor), jobKey = keccak256(bytes(job_id)): only the
/// sponsor funds their own slot, so nobody can squat or front-run a job's escrow. When the job
/// closes, the settler posts the Merkle root of the job's payouts and their total; each recipient
/// (or anyone for them) then claims their amount with a proof, and the sponsor takes back what the
/// total does not cover. A slot never settled can be emptied by its sponsor after its refundAfter.
/// Every way out is a pull: this contract never pays anyone's gas and never pushes a payment.
/// @dev Trust model: the settler can only post a root once per slot, never move money; the money
/// of a slot leaves only to a recipient and amount the root names (a leaf), or back to its sponsor.
/// Anyone can recompute the root from the job's public snapshot and compare it with BountySettled's.
/// Amounts are USDC base units (micro-USDC). The token must move exactly the amount asked (USDC does).
contract BountyEscrow is ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice A slot's state: never funded, funded (open), settled (claims open), refunded (empty).
    enum Status {
        None,
        Funded,
        Settled,
        Refunded
    }

    /// @dev One sponsor's escrow of one job, packed in three storage words.
    struct Slot {
        uint128 funded; // everything the sponsor paid in
        uint128 claimed; // paid out by claims so far
        uint128 total; // what the settle owes the recipients (<= funded)
        uint64 refundAfter; // a never-settled slot is refundable once block.timestamp > refundAfter
        Status status;
        bool excessRefunded; // the sponsor took back funded - total after the settle
        bytes32 root; // the payouts' Merkle root, set by the settle
    }

    /// @notice The escrowed token (USDC, 6 decimals, with EIP-3009).
    IERC20 public immutable usdc;

    /// @notice The only account that may settle a slot (an operator key of the service).
    address public immutable settler;

    mapping(bytes32 jobKey => mapping(address sponsor => Slot)) private _slots;
    mapping(bytes32 jobKey => mapping(address sponsor => mapping(address recipient => bool))) private _claimed;

    /// @notice sponsor paid amount into their slot of jobKey; total is the slot's funded total
    /// since, and refundAfter the slot's refund time since.
    event BountyFunded(
        bytes32 indexed jobKey, address indexed sponsor, uint256 amount, uint256 total, uint64 refundAfter
    );
    /// @notice The settler closed the slot: recipients may claim the leaves of root, up to total.
    event BountySettled(bytes32 indexed jobKey, address indexed sponsor, bytes32 root, uint256 total);
    /// @notice recipient was paid amount from sponsor's slot of jobKey.
    event PayoutClaimed(
        bytes32 indexed jobKey, address indexed sponsor, address indexed recipient, uint256 amount
    );
    /// @notice The sponsor took back amount from their slot of jobKey.
    event BountyRefunded(bytes32 indexed jobKey, address indexed sponsor, uint256 amount);

    /// @notice A constructor argument is the zero address.
    error ZeroAddress();
    /// @notice Funding of zero.
    error ZeroAmount();
    /// @notice settle sent by someone other than the settler.
    error NotSettler(address caller);
    /// @notice The slot was never funded.
    error NotFunded();
    /// @notice The slot is settled: no more funding or settling (or, for refund, the excess was taken).
    error AlreadySettled();
    /// @notice The slot was refunded (or its excess already was).
    error AlreadyRefunded();
    /// @notice A later funding may only keep or raise the slot's refund time.
    error RefundAfterLowered(uint64 current, uint64 requested);
    /// @notice fundWithAuthorization's nonce is not keccak256(abi.encode(jobKey, refundAfter)).
    error NonceMismatch(bytes32 expected, bytes32 given);
    /// @notice settle with a zero root (no claim could ever succeed).
    error ZeroRoot();
    /// @notice settle with a total above what the slot holds.
    error TotalExceedsFunded(uint256 total, uint256 funded);
    /// @notice claim on a slot that is not settled.
    error NotSettled();
    /// @notice The recipient already claimed from this slot.
    error AlreadyClaimed(address recipient);
    /// @notice The proof does not link (jobKey, recipient, amount) to the slot's root.
    error InvalidProof();
    /// @notice The claim would take the slot's claims above its settled total.
    error ClaimExceedsTotal(uint256 amount, uint256 remaining);
    /// @notice Refund of a never-settled slot at or before its refundAfter.
    error RefundTooEarly(uint64 refundAfter);
    /// @notice The settle covered everything funded: there is no excess to take back.
    error NothingToRefund();

    /// @param usdc_ The escrowed token.
    /// @param settler_ The account allowed to settle (fixed for the contract's life).
    constructor(IERC20 usdc_, address settler_) {
        if (address(usdc_) == address(0) || settler_ == address(0)) revert ZeroAddress();
        usdc = usdc_;
        settler = settler_;
    }

    /// @notice Pays amount of the caller's USDC (approved to this contract) into the slot
    /// (jobKey, caller). The first funding sets refundAfter (unix seconds); a later one may only
    /// keep or raise it. Reverts once the slot is settled or refunded.
    function fund(bytes32 jobKey, uint256 amount, uint64 refundAfter) external nonReentrant {
        _credit(jobKey, msg.sender, amount, refundAfter);
        usdc.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @notice fund for `from` in one transaction anyone may relay: from signs USDC's EIP-3009
    /// ReceiveWithAuthorization(from, this contract, amount, validAfter, validBefore, nonce) with
    /// nonce = authorizationNonce(jobKey, refundAfter), which binds the signature to this job
    /// and refund time (a relayer cannot redirect it). Funds the slot (jobKey, from).
    function fundWithAuthorization(
        bytes32 jobKey,
        address from,
        uint256 amount,
        uint64 refundAfter,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external nonReentrant {
        bytes32 expected = authorizationNonce(jobKey, refundAfter);
        if (nonce != expected) revert NonceMismatch(expected, nonce);
        _credit(jobKey, from, amount, refundAfter);
        IERC3009(address(usdc)).receiveWithAuthorization(
            from, address(this), amount, validAfter, validBefore, nonce, v, r, s
        );
    }

    /// @notice Closes the funded slot (jobKey, sponsor) with the payouts' Merkle root and their
    /// total (<= funded): funding stops, claims start, the sponsor may take back funded - total.
    /// Settler only; once per slot; not after a refund.
    function settle(bytes32 jobKey, address sponsor, bytes32 root, uint256 total) external {
        if (msg.sender != settler) revert NotSettler(msg.sender);
        if (root == bytes32(0)) revert ZeroRoot();
        Slot storage slot = _slots[jobKey][sponsor];
        Status status = slot.status;
        if (status == Status.None) revert NotFunded();
        if (status == Status.Settled) revert AlreadySettled();
        if (status == Status.Refunded) revert AlreadyRefunded();
        uint256 funded = slot.funded;
        if (total > funded) revert TotalExceedsFunded(total, funded);
        slot.status = Status.Settled;
        slot.total = uint128(total); // <= funded, a uint128
        slot.root = root;
        emit BountySettled(jobKey, sponsor, root, total);
    }

    /// @notice Pays recipient their amount from the settled slot (jobKey, sponsor), proved by
    /// proof against the slot's root with leaf payoutLeaf(jobKey, recipient, amount). Anyone may
    /// send it; the money always goes to recipient. Once per (slot, recipient); the slot's claims
    /// never exceed its settled total.
    function claim(bytes32 jobKey, address sponsor, address recipient, uint256 amount, bytes32[] calldata proof)
        external
        nonReentrant
    {
        Slot storage slot = _slots[jobKey][sponsor];
        if (slot.status != Status.Settled) revert NotSettled();
        mapping(address => bool) storage claimed = _claimed[jobKey][sponsor];
        if (claimed[recipient]) revert AlreadyClaimed(recipient);
        if (!MerkleProof.verifyCalldata(proof, slot.root, payoutLeaf(jobKey, recipient, amount))) {
            revert InvalidProof();
        }
        uint256 paid = slot.claimed;
        uint256 total = slot.total;
        if (amount > total - paid) revert ClaimExceedsTotal(amount, total - paid);
        claimed[recipient] = true;
        slot.claimed = uint128(paid + amount); // <= total, a uint128
        usdc.safeTransfer(recipient, amount);
        emit PayoutClaimed(jobKey, sponsor, recipient, amount);
    }

    /// @notice Gives the caller back money of their slot of jobKey: after the settle, the excess
    /// funded - total, once; before any settle and once block.timestamp > refundAfter, everything,
    /// and the slot becomes refunded (no funding, settle or claim after).
    function refund(bytes32 jobKey) external nonReentrant {
        Slot storage slot = _slots[jobKey][msg.sender];
        Status status = slot.status;
        uint256 amount;
        if (status == Status.Settled) {
            if (slot.excessRefunded) revert AlreadyRefunded();
            amount = slot.funded - slot.total;
            if (amount == 0) revert NothingToRefund();
            slot.excessRefunded = true;
        } else if (status == Status.Funded) {
            uint64 refundAfter = slot.refundAfter;
            if (block.timestamp <= refundAfter) revert RefundTooEarly(refundAfter);
            amount = slot.funded;
            slot.status = Status.Refunded;
        } else if (status == Status.Refunded) {
            revert AlreadyRefunded();
        } else {
            revert NotFunded();
        }
        usdc.safeTransfer(msg.sender, amount);
        emit BountyRefunded(jobKey, msg.sender, amount);
    }

    /// @notice Everything sponsor ever paid into their slot of jobKey (refunds and claims do not
    /// lower it).
    function fundedOf(bytes32 jobKey, address sponsor) external view returns (uint256) {
        return _slots[jobKey][sponsor].funded;
    }

    /// @notice The whole state of the slot (jobKey, sponsor), for clients showing an escrow.
    function slotOf(bytes32 jobKey, address sponsor)
        external
        view
        returns (
            Status status,
            uint256 funded,
            uint256 total,
            uint256 claimed,
            bytes32 root,
            uint64 refundAfter,
            bool excessRefunded
        )
    {
        Slot storage slot = _slots[jobKey][sponsor];
        return (slot.status, slot.funded, slot.total, slot.claimed, slot.root, slot.refundAfter, slot.excessRefunded);
    }

    /// @notice True once recipient has claimed from the slot (jobKey, sponsor).
    function isClaimed(bytes32 jobKey, address sponsor, address recipient) external view returns (bool) {
        return _claimed[jobKey][sponsor][recipient];
    }

    /// @notice The Merkle leaf of a payout: keccak256(bytes.concat(keccak256(abi.encode(jobKey,
    /// recipient, amount)))), hashed twice so a leaf is never taken for an inner node.
    function payoutLeaf(bytes32 jobKey, address recipient, uint256 amount) public pure returns (bytes32) {
        return keccak256(bytes.concat(keccak256(abi.encode(jobKey, recipient, amount))));
    }

    /// @notice The EIP-3009 nonce fundWithAuthorization requires: keccak256(abi.encode(jobKey,
    /// refundAfter)). A sponsor funds the same job by authorization once per refund time.
    function authorizationNonce(bytes32 jobKey, uint64 refundAfter) public pure returns (bytes32) {
        return keccak256(abi.encode(jobKey, refundAfter));
    }

    /// @dev Books amount into the slot (jobKey, sponsor) and emits BountyFunded; the caller moves
    /// the tokens right after (the whole call reverts if that fails).
    function _credit(bytes32 jobKey, address sponsor, uint256 amount, uint64 refundAfter) private {
        if (amount == 0) revert ZeroAmount();
        Slot storage slot = _slots[jobKey][sponsor];
        Status status = slot.status;
        if (status == Status.Settled) revert AlreadySettled();
        if (status == Status.Refunded) revert AlreadyRefunded();
        if (status == Status.None) {
            slot.status = Status.Funded;
        } else if (refundAfter < slot.refundAfter) {
            revert RefundAfterLowered(slot.refundAfter, refundAfter);
        }
        slot.refundAfter = refundAfter;
        uint128 total = SafeCast.toUint128(slot.funded + amount);
        slot.funded = total;
        emit BountyFunded(jobKey, sponsor, amount, total, refundAfter);
    }
}
