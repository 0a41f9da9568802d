// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// @title GSN v1 relay recipient interface (RelayHub 1.0.0 ABI).
interface IRelayRecipient {
    function getHubAddr() external view returns (address);

    function acceptRelayedCall(
        address relay,
        address from,
        bytes calldata encodedFunction,
        uint256 transactionFee,
        uint256 gasPrice,
        uint256 gasLimit,
        uint256 nonce,
        bytes calldata approvalData,
        uint256 maxPossibleCharge
    ) external view returns (uint256, bytes memory);

    function preRelayedCall(bytes calldata context) external returns (bytes32);

    function postRelayedCall(bytes calldata context, bool success, uint256 actualCharge, bytes32 preRetVal) external;
}

/// @title RelayHub: a port of the GSN v1 RelayHub 1.0.0 to Solidity 0.8.
/// @notice Same function selectors, events, enums, constants and precondition/status semantics as the
///         deployed v1 hub (tabookey/OpenZeppelin gsn 1.0.0, "$Id: 5a82a94c…"): `relayCall` never reverts
///         on a bad signature, nonce or rejection (it emits CanRelayFailed), and an inner revert is reported
///         through TransactionRelayed's status while the nonce advances.
///         Left out: penalizeRepeatedNonce / penalizeIllegalTransaction (they need an RLP decoder and only
///         matter for a public network of untrusted relays; the local exchange runs its single relay).
contract RelayHub {
    enum RelayState {
        Unknown,
        Staked,
        Registered,
        Removed
    }

    enum PreconditionCheck {
        OK,
        WrongSignature,
        WrongNonce,
        AcceptRelayedCallReverted,
        InvalidRecipientStatusCode
    }

    enum RelayCallStatus {
        OK,
        RelayedCallFailed,
        PreRelayedFailed,
        PostRelayedFailed,
        RecipientBalanceChanged
    }

    struct Relay {
        uint256 stake;
        uint256 unstakeDelay;
        uint256 unstakeTime;
        address payable owner;
        RelayState state;
    }

    struct AtomicData {
        uint256 atomicInitialGas;
        uint256 balanceBefore;
        bytes32 preReturnValue;
        bool relayedCallSuccess;
    }

    event Staked(address indexed relay, uint256 stake, uint256 unstakeDelay);
    event RelayAdded(address indexed relay, address indexed owner, uint256 transactionFee, uint256 stake, uint256 unstakeDelay, string url);
    event RelayRemoved(address indexed relay, uint256 unstakeTime);
    event Unstaked(address indexed relay, uint256 stake);
    event Deposited(address indexed recipient, address indexed from, uint256 amount);
    event Withdrawn(address indexed account, address indexed dest, uint256 amount);
    event CanRelayFailed(address indexed relay, address indexed from, address indexed to, bytes4 selector, uint256 reason);
    event TransactionRelayed(
        address indexed relay, address indexed from, address indexed to, bytes4 selector, RelayCallStatus status, uint256 charge
    );

    uint256 private constant minimumStake = 1 ether;
    uint256 private constant minimumUnstakeDelay = 1 weeks;
    uint256 private constant maximumUnstakeDelay = 12 weeks;
    uint256 private constant minimumRelayBalance = 0.1 ether;
    uint256 private constant maximumRecipientDeposit = 2 ether;
    uint256 private constant gasOverhead = 48204;
    uint256 private constant gasReserve = 100000;
    uint256 private constant recipientCallsAtomicOverhead = 5000;
    uint256 private constant acceptRelayedCallMaxGas = 50000;
    uint256 private constant preRelayedCallMaxGas = 100000;
    uint256 private constant postRelayedCallMaxGas = 100000;
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    mapping(address => uint256) private nonces;
    mapping(address => Relay) private relays;
    mapping(address => uint256) private balances;

    string public version = "1.0.0";

    // ---------------------------------------------------------------- relay management

    function stake(address relay, uint256 unstakeDelay) external payable {
        if (relays[relay].state == RelayState.Unknown) {
            require(msg.sender != relay, "relay cannot stake for itself");
            relays[relay].owner = payable(msg.sender);
            relays[relay].state = RelayState.Staked;
        } else if ((relays[relay].state == RelayState.Staked) || (relays[relay].state == RelayState.Registered)) {
            require(relays[relay].owner == msg.sender, "not owner");
        } else {
            revert("wrong state for stake");
        }

        relays[relay].stake += msg.value;
        require(relays[relay].stake >= minimumStake, "stake lower than minimum");
        require(unstakeDelay >= minimumUnstakeDelay, "delay lower than minimum");
        require(unstakeDelay <= maximumUnstakeDelay, "delay higher than maximum");
        require(unstakeDelay >= relays[relay].unstakeDelay, "unstakeDelay cannot be decreased");
        relays[relay].unstakeDelay = unstakeDelay;

        emit Staked(relay, relays[relay].stake, relays[relay].unstakeDelay);
    }

    function registerRelay(uint256 transactionFee, string memory url) public {
        address relay = msg.sender;
        require(relay == tx.origin, "Contracts cannot register as relays");
        require(
            relays[relay].state == RelayState.Staked || relays[relay].state == RelayState.Registered, "wrong state for stake"
        );
        require(relay.balance >= minimumRelayBalance, "balance lower than minimum");

        if (relays[relay].state != RelayState.Registered) {
            relays[relay].state = RelayState.Registered;
        }

        emit RelayAdded(relay, relays[relay].owner, transactionFee, relays[relay].stake, relays[relay].unstakeDelay, url);
    }

    function removeRelayByOwner(address relay) public {
        require(relays[relay].owner == msg.sender, "not owner");
        require(
            (relays[relay].state == RelayState.Staked) || (relays[relay].state == RelayState.Registered), "already removed"
        );
        relays[relay].unstakeTime = relays[relay].unstakeDelay + block.timestamp;
        relays[relay].state = RelayState.Removed;
        emit RelayRemoved(relay, relays[relay].unstakeTime);
    }

    function unstake(address relay) public {
        require(canUnstake(relay), "canUnstake failed");
        require(relays[relay].owner == msg.sender, "not owner");
        address payable owner = payable(msg.sender);
        uint256 amount = relays[relay].stake;
        delete relays[relay];
        owner.transfer(amount);
        emit Unstaked(relay, amount);
    }

    function getRelay(address relay)
        external
        view
        returns (uint256 totalStake, uint256 unstakeDelay, uint256 unstakeTime, address payable owner, RelayState state)
    {
        totalStake = relays[relay].stake;
        unstakeDelay = relays[relay].unstakeDelay;
        unstakeTime = relays[relay].unstakeTime;
        owner = relays[relay].owner;
        state = relays[relay].state;
    }

    function canUnstake(address relay) public view returns (bool) {
        return relays[relay].unstakeTime > 0 && relays[relay].unstakeTime <= block.timestamp;
    }

    // ---------------------------------------------------------------- recipient balances

    function depositFor(address target) public payable {
        require(msg.value <= maximumRecipientDeposit, "deposit too big");
        balances[target] += msg.value;
        emit Deposited(target, msg.sender, msg.value);
    }

    function balanceOf(address target) external view returns (uint256) {
        return balances[target];
    }

    function withdraw(uint256 amount, address payable dest) public {
        address account = msg.sender;
        require(balances[account] >= amount, "insufficient funds");
        balances[account] -= amount;
        dest.transfer(amount);
        emit Withdrawn(account, dest, amount);
    }

    function getNonce(address from) external view returns (uint256) {
        return nonces[from];
    }

    // ---------------------------------------------------------------- relaying

    function canRelay(
        address relay,
        address from,
        address to,
        bytes memory encodedFunction,
        uint256 transactionFee,
        uint256 gasPrice,
        uint256 gasLimit,
        uint256 nonce,
        bytes memory signature,
        bytes memory approvalData
    ) public view returns (uint256 status, bytes memory recipientContext) {
        {
            bytes memory packed =
                abi.encodePacked("rlx:", from, to, encodedFunction, transactionFee, gasPrice, gasLimit, nonce, address(this));
            bytes32 hashedMessage = keccak256(abi.encodePacked(packed, relay));
            bytes32 ethSigned = keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", hashedMessage));
            if (recover(ethSigned, signature) != from) {
                return (uint256(PreconditionCheck.WrongSignature), "");
            }
        }

        if (nonces[from] != nonce) {
            return (uint256(PreconditionCheck.WrongNonce), "");
        }

        uint256 maxCharge = maxPossibleCharge(gasLimit, gasPrice, transactionFee);
        bytes memory encodedTx = abi.encodeWithSelector(
            IRelayRecipient.acceptRelayedCall.selector,
            relay,
            from,
            encodedFunction,
            transactionFee,
            gasPrice,
            gasLimit,
            nonce,
            approvalData,
            maxCharge
        );

        (bool success, bytes memory returndata) = to.staticcall{gas: acceptRelayedCallMaxGas}(encodedTx);

        if (!success) {
            return (uint256(PreconditionCheck.AcceptRelayedCallReverted), "");
        } else {
            (status, recipientContext) = abi.decode(returndata, (uint256, bytes));
            // Status codes 1..10 are reserved for the hub's own precondition checks.
            if ((status == 0) || (status > 10)) {
                return (status, recipientContext);
            } else {
                return (uint256(PreconditionCheck.InvalidRecipientStatusCode), "");
            }
        }
    }

    function relayCall(
        address from,
        address recipient,
        bytes memory encodedFunction,
        uint256 transactionFee,
        uint256 gasPrice,
        uint256 gasLimit,
        uint256 nonce,
        bytes memory signature,
        bytes memory approvalData
    ) public {
        uint256 initialGas = gasleft();

        require(relays[msg.sender].state == RelayState.Registered, "Unknown relay");
        require(gasPrice <= tx.gasprice, "Invalid gas price");
        require(initialGas >= requiredGas(gasLimit) - gasOverhead, "Not enough gasleft()");
        require(maxPossibleCharge(gasLimit, gasPrice, transactionFee) <= balances[recipient], "Recipient balance too low");

        bytes4 functionSelector = readBytes4(encodedFunction);

        bytes memory recipientContext;
        {
            uint256 preconditionCheck;
            (preconditionCheck, recipientContext) = canRelay(
                msg.sender, from, recipient, encodedFunction, transactionFee, gasPrice, gasLimit, nonce, signature, approvalData
            );
            if (preconditionCheck != uint256(PreconditionCheck.OK)) {
                emit CanRelayFailed(msg.sender, from, recipient, functionSelector, preconditionCheck);
                return;
            }
        }

        // The nonce advances before the call, so a reverting relayed call cannot be replayed.
        nonces[from]++;

        RelayCallStatus status;
        {
            uint256 preChecksGas = initialGas - gasleft();
            bytes memory encodedFunctionWithFrom = abi.encodePacked(encodedFunction, from);
            bytes memory data = abi.encodeWithSelector(
                this.recipientCallsAtomic.selector,
                recipient,
                encodedFunctionWithFrom,
                transactionFee,
                gasPrice,
                gasLimit,
                preChecksGas,
                recipientContext
            );
            (, bytes memory relayCallStatus) = address(this).call(data);
            status = abi.decode(relayCallStatus, (RelayCallStatus));
        }

        uint256 charge = calculateCharge(getChargeableGas(initialGas - gasleft(), false), gasPrice, transactionFee);
        require(balances[recipient] >= charge, "Should not get here");
        balances[recipient] -= charge;
        balances[relays[msg.sender].owner] += charge;

        emit TransactionRelayed(msg.sender, from, recipient, functionSelector, status, charge);
    }

    function recipientCallsAtomic(
        address recipient,
        bytes calldata encodedFunctionWithFrom,
        uint256 transactionFee,
        uint256 gasPrice,
        uint256 gasLimit,
        uint256 preChecksGas,
        bytes calldata recipientContext
    ) external returns (RelayCallStatus) {
        AtomicData memory atomicData;
        atomicData.atomicInitialGas = gasleft();

        require(msg.sender == address(this), "Only RelayHub should call this function");

        atomicData.balanceBefore = balances[recipient];

        {
            bytes memory data = abi.encodeWithSelector(IRelayRecipient.preRelayedCall.selector, recipientContext);
            (bool success, bytes memory retData) = recipient.call{gas: preRelayedCallMaxGas}(data);
            if (!success || retData.length < 32) {
                revertWithStatus(RelayCallStatus.PreRelayedFailed);
            }
            atomicData.preReturnValue = abi.decode(retData, (bytes32));
        }

        (atomicData.relayedCallSuccess,) = recipient.call{gas: gasLimit}(encodedFunctionWithFrom);

        {
            bytes memory data;
            {
                uint256 estimatedCharge = calculateCharge(
                    getChargeableGas(preChecksGas + atomicData.atomicInitialGas - gasleft(), true), gasPrice, transactionFee
                );
                data = abi.encodeWithSelector(
                    IRelayRecipient.postRelayedCall.selector,
                    recipientContext,
                    atomicData.relayedCallSuccess,
                    estimatedCharge,
                    atomicData.preReturnValue
                );
            }
            (bool successPost,) = recipient.call{gas: postRelayedCallMaxGas}(data);
            if (!successPost) {
                revertWithStatus(RelayCallStatus.PostRelayedFailed);
            }
        }

        if (balances[recipient] < atomicData.balanceBefore) {
            revertWithStatus(RelayCallStatus.RecipientBalanceChanged);
        }

        return atomicData.relayedCallSuccess ? RelayCallStatus.OK : RelayCallStatus.RelayedCallFailed;
    }

    // Reverting undoes the recipient's pre/post effects while still telling relayCall which step failed.
    function revertWithStatus(RelayCallStatus status) private pure {
        bytes memory data = abi.encode(status);
        assembly {
            revert(add(data, 32), mload(data))
        }
    }

    function requiredGas(uint256 relayedCallStipend) public pure returns (uint256) {
        return gasOverhead + gasReserve + acceptRelayedCallMaxGas + preRelayedCallMaxGas + postRelayedCallMaxGas
            + relayedCallStipend;
    }

    function maxPossibleCharge(uint256 relayedCallStipend, uint256 gasPrice, uint256 transactionFee)
        public
        pure
        returns (uint256)
    {
        return calculateCharge(requiredGas(relayedCallStipend), gasPrice, transactionFee);
    }

    /// @dev The fee is a percentage: 40 charges 1.4 times the gas spent.
    function calculateCharge(uint256 gas, uint256 gasPrice, uint256 fee) private pure returns (uint256) {
        return (gas * gasPrice * (100 + fee)) / 100;
    }

    function getChargeableGas(uint256 gasUsed, bool postRelayedCallEstimation) private pure returns (uint256) {
        return gasOverhead + gasUsed + (postRelayedCallEstimation ? (postRelayedCallMaxGas + recipientCallsAtomicOverhead) : 0);
    }

    function readBytes4(bytes memory b) private pure returns (bytes4 result) {
        require(b.length >= 4, "GREATER_OR_EQUAL_TO_4_LENGTH_REQUIRED");
        assembly {
            result := and(mload(add(b, 32)), 0xFFFFFFFF00000000000000000000000000000000000000000000000000000000)
        }
    }

    /// @dev OpenZeppelin 2.x ECDSA.recover: a malformed, malleable (high-s) or wrong-v signature yields the
    ///      zero address instead of reverting, which is what lets relayCall report WrongSignature.
    function recover(bytes32 hash, bytes memory signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        if (uint256(s) > HALF_ORDER) return address(0);
        if (v != 27 && v != 28) return address(0);
        return ecrecover(hash, v, r, s);
    }
}
